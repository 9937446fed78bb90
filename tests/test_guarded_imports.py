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

import apex
'''


def test_guarded_imports_are_medium_confidence(tmp_path):
    (tmp_path / "pipe.py").write_text(SRC)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    found = {(f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}
    assert found[(5, "TRN221")]["confidence"] == "medium"
    assert "optional import" in found[(5, "TRN221")]["message"]
    # the TPU path never runs on a Neuron machine, and flash-attn (CUDA-only) is never installed there, so
    # its fallback is taken: both listed only with --show-guarded
    assert found[(5, "TRN221")]["guarded"] is True and found[(11, "TRN281")]["guarded"] is True
    default = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)["findings"]
    assert [(f["line"], f["rule"]) for f in default] == [(15, "TRN283")]
    flash = next(f for (line, _), f in found.items() if line == 11)
    assert flash["confidence"] == "medium"
    # apex rather than xformers: xFormers findings are medium everywhere (audited precision, docs/scope.md)
    plain = next(f for (line, _), f in found.items() if line == 15)
    assert plain["confidence"] == "high" and "optional" not in plain["message"]


FALLBACK = '''try:
    from torchao.quantization import quantize_
except ImportError:
    quantize_ = None

try:
    import apex
except ImportError as err:
    raise ImportError("install apex") from err


def quantize(model):
    # the optional name is used: an import nothing uses is `unused-import`'s business
    return quantize_(model) if quantize_ is not None else model
'''


def test_an_optional_import_with_a_path_without_it_is_a_change_not_a_blocker(tmp_path):
    (tmp_path / "attn.py").write_text(FALLBACK)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    found = [(f["line"], f["rule"], f["severity"], f["confidence"]) for f in json.loads(proc.stdout)["findings"]]
    # the first handler leaves a working default; the second raises, so apex is required after all
    assert found == [(2, "TRN201", "change", "medium"), (7, "TRN283", "blocker", "high")]
