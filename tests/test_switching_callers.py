"""Calls that switch on a helper's device move are places of its finding (project/switch_params.switched_on_by;
blind48: longcw/faster_rcnn_pytorch's `network.np_to_variable(x, is_cuda=True)`, eleven calls)."""
import json

from conftest import run_cli

HELPER = """import torch
from torch.autograd import Variable


def np_to_variable(x, is_cuda=True, dtype=torch.FloatTensor):
    v = Variable(torch.from_numpy(x).type(dtype))
    if is_cuda:
        v = v.cuda()
    return v
"""


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return [(f["path"], f["line"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences") or ()],
             [(e["path"], e["line"], e["column"]) for e in f.get("elsewhere") or ()], f["message"])
            for f in json.loads(proc.stdout)["findings"]]


def test_calls_passing_the_switch_on_are_places_of_the_helpers_finding(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "network.py").write_text(HELPER + "\n\ndef image(x):\n    return np_to_variable(x, is_cuda=True)\n")
    (pkg / "model.py").write_text(
        "import numpy as np\nfrom . import network\n\n\ndef forward(im):\n"
        "    data = network.np_to_variable(im, is_cuda=True)\n"
        "    labels = network.np_to_variable(np.zeros(3), is_cuda=False)  # switched off: no place\n"
        "    keep = network.np_to_variable(np.ones(2))  # the default: the definition says it\n"
        "    return data, labels, keep\n")
    (tmp_path / "train.py").write_text("from pkg import model\n\nmodel.forward(None)\n")
    assert _scan(tmp_path) == [
        ("pkg/network.py", 8, "TRN241", [(13, 12)], [("pkg/model.py", 6, 12)],
         ".cuda() moves a tensor or module to a GPU: `cuda`; switched on at 2 calls of the function (first at "
         "pkg/model.py:6)")]


def test_an_implicit_relative_import_reaches_the_sibling_module(tmp_path):
    # py-faster-rcnn's `import network` beside network.py inside the faster_rcnn package (Python 2 semantics, or a
    # script's own folder on sys.path); an absolute module of that name would win
    pkg = tmp_path / "faster_rcnn"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "network.py").write_text(HELPER)
    (pkg / "faster_rcnn.py").write_text("import network\n\n\ndef step(im):\n"
                                        "    return network.np_to_variable(im, is_cuda=True)\n")
    (tmp_path / "train.py").write_text("from faster_rcnn import faster_rcnn\n\nfaster_rcnn.step(None)\n")
    got = _scan(tmp_path)
    assert [(p, ln, e) for p, ln, _r, _o, e, _m in got] == [("faster_rcnn/network.py", 8, [("faster_rcnn/faster_rcnn.py", 5, 12)])]
