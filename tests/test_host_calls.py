"""host-data-code at the call (trnready/project/host_calls.py): a linked finding at a load-time call is guarded."""
import json

from conftest import FIXTURES, run_cli


def test_linked_interpolation_in_checkpoint_loading_is_guarded():
    proc = run_cli("scan", FIXTURES / "host_calls", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    found = [(f["path"], f["line"], f["rule"], f.get("guarded_by", ""),
              [o["line"] for o in f.get("occurrences", [])]) for f in json.loads(proc.stdout)["findings"]]
    assert found == [
        ("clip/build.py", 5, "TRN191", "", []),  # `build(model, weights)`: no load-time function, no weights name
        # load_checkpoint (host-data-functions) and a call handed `visual_state_dict` (checkpoint-parameters)
        ("clip/factory.py", 8, "TRN191", "host-data-code", [13]),
        ("clip/factory.py", 25, "TRN242", "", []),
        # an item of a parameter named `state_dict` (state-dict-resize reads it before the caller-based host guard)
        ("clip/utils.py", 6, "TRN191", "state-dict-resize", [4]),
        ("clip/utils.py", 10, "TRN191", "", [9]),
    ]
    # forward (line 17) and load_pretrained (line 26, it moves to cuda) leave upsample's "bicubic" default, which
    # utils.py:10 already reports: places of that finding (project/report.py fold_values_into_calls);
    # load_weights (line 21) is dropped from them
    at_call = [f for f in json.loads(proc.stdout)["findings"] if (f["path"], f["line"]) == ("clip/utils.py", 10)]
    assert [(p["path"], p["line"]) for p in at_call[0]["elsewhere"]] == [("clip/factory.py", 17), ("clip/factory.py", 26)]
