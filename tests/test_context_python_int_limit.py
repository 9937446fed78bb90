"""python-int-limit: an int64 limit compared as a Python number is not 64-bit tensor arithmetic."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "Arithmetic that needs the full 64-bit integer range: `torch.iinfo`"


def test_compared_limits_are_silent_limits_put_in_tensors_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "python_int_limit") == [
        # line 3: LONG_MAX is only compared; line 10: an assert
        ("limits.py", 4, 8, "TRN131", MSG, False),  # FILL ends up in a tensor (torch.where)
        ("limits.py", 14, 35, "TRN131", MSG, False),  # fills a tensor
        ("limits.py", 21, 15, "TRN131", MSG, False),  # never read here: may be used anywhere
        # line 26: an expected value inside self.assertEqual(...) is silent; line 27 builds a tensor
        ("limits.py", 27, 33, "TRN131", MSG, False),
    ]
