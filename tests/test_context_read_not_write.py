"""read-not-write: reading a backend flag changes nothing; assigning or calling it does."""
from conftest import CONTEXT_FIXTURES, scan_findings

FLAG = "cuDNN / CUDA backend flag: `torch.backends.cudnn.{}`"


def test_reads_are_silent_writes_and_calls_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "read_not_write") == [
        # line 5 `saved = ...benchmark` and line 6 `if ...allow_tf32:` are reads
        ("flags.py", 8, 5, "TRN261", FLAG.format("benchmark"), False),
        ("flags.py", 9, 10, "TRN261", FLAG.format("flags"), False),
        # line 11 writes back the value saved on line 5: setting-restore drops it
    ]
