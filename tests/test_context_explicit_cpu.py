"""explicit-cpu: a value created with device="cpu" stays on the host on every machine."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

F64 = "float64 or complex128 dtype: `torch.float64`"
UP = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
CUDA = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_values_created_on_the_cpu_are_guarded():
    # float64 folds to one finding per rule per function, and only with findings of the same standing: the
    # occurrences show which lines were guarded with which
    proc = run_cli("scan", CONTEXT_FIXTURES / "explicit_cpu", "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"], f["guarded"],
            [o["line"] for o in f.get("occurrences", ())]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        # a project helper called with device="cpu"; line 10: torch.zeros(..., device="cpu")
        ("optim.py", 9, 51, "TRN121", F64, True, [10]),
        # .cpu() afterwards: created on the default device; line 12: created on the weights' device
        ("optim.py", 11, 34, "TRN121", F64, False, [12]),
        # resize.py: an input taken to the host in the call itself (lines 7 and 9) ...
        ("resize.py", 7, 9, "TRN191", UP, True, []),
        ("resize.py", 9, 13, "TRN191", UP, True, []),
        # ... but not a .cpu() of the result, nor an input taken to the GPU
        ("resize.py", 11, 10, "TRN191", UP, False, []),
        ("resize.py", 14, 15, "TRN191", UP, False, []),
        ("resize.py", 14, 29, "TRN241", CUDA, False, []),
    ]


def test_registered_as_a_guard():
    assert context.get("explicit-cpu").effect == "guard"
