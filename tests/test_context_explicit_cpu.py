"""explicit-cpu: a value created with device="cpu" stays on the host on every machine."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

F64 = "float64 or complex128 dtype: `torch.float64`"


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
    ]


def test_registered_as_a_guard():
    assert context.get("explicit-cpu").effect == "guard"
