"""unwrapped-at-once: DataParallel built only to load a `module.`-prefixed checkpoint, then taken off."""
from conftest import CONTEXT_FIXTURES, scan_findings

DP = "nn.DataParallel (one process driving several GPUs): `torch.nn.DataParallel`"


def test_a_wrapper_taken_off_after_loading_is_silent_one_used_or_kept_is_reported():
    got = [f for f in scan_findings(CONTEXT_FIXTURES / "unwrapped_at_once", "--no-config") if f[3] == "TRN352"]
    # load_raft (line 8) and load_raft_eval (line 16) only load and set the mode before `x = x.module`
    assert got == [
        ("flow.py", 24, 13, "TRN352", DP, False),  # called before it is taken off
        ("flow.py", 32, 13, "TRN352", DP, False),  # returned wrapped
        ("flow.py", 38, 13, "TRN352", DP, False),  # another object's .module
    ]
