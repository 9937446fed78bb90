"""host-factory-float64: a float64 factory call in a function that shows no device is a host value."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_float64_made_where_no_device_is_shown_is_guarded():
    proc = run_cli("scan", CONTEXT_FIXTURES / "host_factory_float64", "--format", "json", "--no-cache",
                   "--show-guarded")
    got = [(f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        (5, "TRN121", True),    # a schedule returned from a function with no device
        (9, "TRN121", True),    # sampling weights
        (14, "TRN121", False),  # the function moves a tensor to pos.device
        (19, "TRN121", False),  # t.to(device)
        (25, "TRN121", False),  # a module's forward
        (29, "TRN121", False),  # module level
        (33, "TRN121", False),  # handed to a collective
        (39, "TRN121", False),  # values computed from other tensors
    ]


def test_registered_as_a_guard():
    assert context.get("host-factory-float64").effect == "guard"
