"""test-seed-flags: cuDNN flags in the seed block of device-free test code are guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_seed_helpers_of_tests_are_guarded():
    got = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "test_seed_flags", "--show-guarded")
           if f[3] == "TRN261"]
    assert got == [
        # the training code's seed helper is the program's own setting: reported
        ("src/train_utils.py", 6, "TRN261", False),
        # a test seed helper naming no device: guarded
        ("tests/test_seeds.py", 10, "TRN261", True),
        # ... one that moves a tensor to the GPU, and flags with no seed beside them, stay
        ("tests/test_seeds.py", 15, "TRN261", False),
        ("tests/test_seeds.py", 20, "TRN261", False),
    ]
