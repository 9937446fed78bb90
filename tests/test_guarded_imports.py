"""Optional imports (try/except ImportError, `if is_x_available():`) are reported with medium confidence."""
import json

from conftest import run_cli

SRC = '''import torch
from diffusers.utils import is_torch_xla_available

if is_torch_xla_available():
    import torch_xla.core.xla_model as xm
    XLA_AVAILABLE = True
else:
    XLA_AVAILABLE = False

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None

import xformers
'''


def test_guarded_imports_are_medium_confidence(tmp_path):
    (tmp_path / "pipe.py").write_text(SRC)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    found = {(f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}
    assert found[(5, "TRN221")]["confidence"] == "medium"
    assert "optional import" in found[(5, "TRN221")]["message"]
    # the TPU path never runs on a Neuron machine: listed only with --show-guarded
    assert found[(5, "TRN221")]["guarded"] is True and not found[(11, "TRN281")]["guarded"]
    default = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)["findings"]
    assert [(f["line"], f["rule"]) for f in default] == [(11, "TRN281"), (15, "TRN284")]
    flash = next(f for (line, _), f in found.items() if line == 11)
    assert flash["confidence"] == "medium"
    xf = next(f for (line, _), f in found.items() if line == 15)
    assert xf["confidence"] == "high" and "optional" not in xf["message"]
