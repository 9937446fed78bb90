"""cuda-only-argument: an argument the rule needs, passed only where a check false on Neuron holds, is None there."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_device_ids_passed_only_on_cuda_are_guarded():
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_only_argument", "--format", "json", "--no-cache",
                   "--show-guarded", "--exit-zero")
    found = [(f["line"], f["column"], f.get("guarded_by", ""), [o["line"] for o in f.get("occurrences", ())])
             for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN273"]
    # 13 `[rank] if args.cuda else None` and 14 `None if not args.cuda else [rank]` are None on Neuron (one guarded
    # finding); 15 tests something that holds on Neuron too, 16 always passes device_ids (one active finding)
    assert found == [(13, 5, "cuda-only-argument", [14]), (15, 5, "", [16])]


def test_registered_as_a_guard():
    assert context.get("cuda-only-argument").effect == "guard"
