"""Report step cpu-saved-checkpoint (trnready/project/shipped_checkpoints.py): a torch.load without map_location of a
checkpoint the repository ships, by a literal path, is guarded when every storage location pickled in the file is
"cpu"; a CUDA location, a computed path or a file that is no pickle keeps the finding. The checkpoints are written
here with the stdlib pickle in PyTorch's encoding of a storage's location (protocol 2: a BINUNICODE string), in the
legacy format (one pickle) and the zip format (`archive/data.pkl`)."""
import json
import pickle
import zipfile

from conftest import run_cli


def _legacy(path, location):
    # the persistent id PyTorch pickles for each storage: ('storage', type, key, location, numel)
    path.write_bytes(pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2)
                     + pickle.dumps({"w": ("storage", "FloatStorage", "0", location, 4)}, protocol=2)
                     + b"\x00" * 64)


def _zipped(path, location):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps({"w": ("storage", "FloatStorage", "0", location, 4)},
                                                    protocol=2))
        z.writestr("archive/data/0", b"\x00" * 16)


MODEL = """import os

import torch


class PNet(torch.nn.Module):
    def __init__(self, pretrained=True):
        super().__init__()
        if pretrained:
            path = os.path.join(os.path.dirname(__file__), '../data/pnet.pt')
            self.load_state_dict(torch.load(path))


def rnet():
    return torch.load('data/rnet.pth')


def onet():
    return torch.load(os.path.join(os.path.dirname(__file__), '../data/onet.pt'))


def gpu_net():
    return torch.load('data/gpu.pth')


def lfs_net():
    return torch.load('data/lfs.pt')


def resumed(args):
    return torch.load(args.resume)


PNet(); rnet(); onet(); gpu_net(); lfs_net(); resumed(None)
"""


def test_a_shipped_checkpoint_saved_on_the_cpu_loads_anywhere(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "models" / "nets.py").write_text(MODEL)
    _legacy(tmp_path / "data" / "pnet.pt", "cpu")
    _zipped(tmp_path / "data" / "rnet.pth", "cpu")
    _legacy(tmp_path / "data" / "onet.pt", "cpu")
    _zipped(tmp_path / "data" / "gpu.pth", "cuda:0")
    (tmp_path / "data" / "lfs.pt").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    got = [(f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN351"]
    assert got == [
        (11, "cpu-saved-checkpoint"),  # a local bound to os.path.join(os.path.dirname(__file__), ...)
        (15, "cpu-saved-checkpoint"),  # a literal from the root, in the zip format
        (19, "cpu-saved-checkpoint"),
        (23, ""),  # saved from a GPU: restored to CUDA
        (27, ""),  # an LFS pointer: not read
        (31, ""),  # a path from the command line
    ]
