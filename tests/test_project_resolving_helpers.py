"""Link step caller-places, device resolvers (`resolving-helper-rules`): a helper returning the "cuda" device it
assigns when the caller leaves the device out gives each such caller a CUDA device, so its calls are places of the
helper's one finding."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "resolving_helpers"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def _places(f):
    return [(e["path"], e["line"]) for e in f.get("elsewhere", ())]


def test_the_calls_reaching_the_returned_cuda_device_are_places():
    found = _findings()
    # `pick_device("cpu")` takes the other arm and stays out
    resolver = found[("kge/devices.py", 7, "TRN242")]
    assert _places(resolver) == [("kge/scoring.py", 6), ("train.py", 5)]
    assert resolver["message"].endswith("pick_device() called at kge/scoring.py:6, train.py:5")


def test_a_cuda_value_the_helper_does_not_hand_back_keeps_its_calls_out():
    found = _findings()
    assert _places(found[("kge/devices.py", 24, "TRN242")]) == []
    assert [k for k in found if k[0] != "kge/devices.py"] == []
