"""An instance flag a base class of another module sets from a never-on-Neuron check guards the blocks a subclass
opens with it (project/inherited_flags.py): `self.use_gpu = torch.cuda.is_available() and use_gpu` in
`Engine.__init__`, then `if self.use_gpu: imgs = imgs.cuda()` in a subclass's method."""
import json

from conftest import run_cli

ENGINE = '''import torch


class Engine:
    def __init__(self, model, use_gpu=True):
        self.model = model
        self.use_gpu = torch.cuda.is_available() and use_gpu
        self.half = use_gpu

    def run(self, x):
        if self.use_gpu:
            x = x.cuda()
        return self.model(x)
'''
INIT = "from .engine import Engine\n"  # the package re-exports the base class
TRIPLET = '''from ..engine import Engine
from .. import Engine as Reexported


class TripletEngine(Engine):
    def step(self, imgs, pids):
        if self.use_gpu:
            imgs = imgs.cuda()
            pids = pids.cuda()
        if self.half:
            imgs = imgs.cuda()
        return self.model(imgs), pids


class ThroughInit(Reexported):
    def step(self, imgs):
        if self.use_gpu and imgs is not None:
            imgs = imgs.cuda()
        return imgs


class OwnFlag(Engine):
    def __init__(self, model):
        super().__init__(model)
        self.use_gpu = True

    def step(self, imgs):
        if self.use_gpu:
            imgs = imgs.cuda()
        return imgs
'''


def test_blocks_under_an_inherited_cuda_flag_are_guarded(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "image").mkdir(parents=True)
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "engine.py").write_text(ENGINE)
    (pkg / "image" / "__init__.py").write_text("")
    (pkg / "image" / "triplet.py").write_text(TRIPLET)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["column"], f["rule"], f["guarded"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "pkg/image/triplet.py"]
    assert got == [
        # the base class sets self.use_gpu from torch.cuda.is_available(): the subclass's arm never runs on Neuron
        (8, 20, "TRN241", True, [9]),
        # self.half holds the caller's option, not a check: the move stays a finding, never folded into the
        # guarded block's
        (11, 20, "TRN241", False, []),
        # a base imported through the package's re-export, the flag one part of an `and`
        (18, 20, "TRN241", True, []),
        # a subclass that sets the attribute itself decides it there
        (29, 20, "TRN241", False, []),
    ]
