"""retried-with-argument: a torch.load whose failure handler loads again with the map_location it lacks."""
from conftest import CONTEXT_FIXTURES, scan_findings

LOAD = "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks"


def test_a_load_retried_with_map_location_is_silent_other_handlers_keep_it():
    assert scan_findings(CONTEXT_FIXTURES / "retried_with_argument") == [
        # restore.py:8 (a bare except loads again with map_location=) and 16 (RuntimeError, the location passed
        # by position) are silent, as is the inner try of 52 inside a handler
        ("restore.py", 24, 17, "TRN351", LOAD, False),  # the handler logs and re-raises
        ("restore.py", 33, 17, "TRN351", LOAD, False),  # the retry loads another file, still without a location
        ("restore.py", 41, 17, "TRN351", LOAD, False),  # FileNotFoundError is not the device failure
    ]
