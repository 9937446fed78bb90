"""A never-on-Neuron flag imported from another module guards the blocks it opens (project/flags.py)."""
import json

from conftest import run_cli

GUARD = '''import torch

_SUPPORTS_FLEX = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (7, 5)
USE_FUSED = True
'''
INIT = "from ._guard import _SUPPORTS_FLEX\n"  # the package re-exports the flag
ATTN = '''import torch
from . import _SUPPORTS_FLEX
from ._guard import USE_FUSED

if _SUPPORTS_FLEX:
    flex = torch.compile(torch.nn.attention.flex_attention.flex_attention)

if USE_FUSED:
    mask = torch.nn.attention.flex_attention.create_block_mask(None, 1, 1, 8, 8)


def pick():
    if _SUPPORTS_FLEX:
        device = "cuda"
    else:
        device = "cpu"
    return device
'''


def test_blocks_under_an_imported_cuda_flag_are_guarded(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "_guard.py").write_text(GUARD)
    (pkg / "attn.py").write_text(ATTN)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "pkg/attn.py"]
    assert got == [
        # the only torch.compile sits in the guarded block: the repository-level NEFF-cache advisory with it
        ("pkg/attn.py", 6, "TRN701", True, "neuron-guarded"),
        ("pkg/attn.py", 6, "TRN211", True, "neuron-guarded"),  # defined in _guard.py, re-exported by __init__
        ("pkg/attn.py", 9, "TRN211", False, None),  # USE_FUSED = True: a plain switch
        ("pkg/attn.py", 14, "TRN242", False, None),  # a device picked in either arm stays a finding
    ]
