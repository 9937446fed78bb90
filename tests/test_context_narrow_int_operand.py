"""narrow-int-operand: shifts/xor of tensors just cast to 32 bits or fewer are not int64 arithmetic."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "Arithmetic that needs the full 64-bit integer range: `{}`"


def test_narrow_operands_are_silent_wide_or_unknown_ones_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "narrow_int_operand") == [
        # line 8: a float reinterpreted as int32 bits; line 12: .int(); line 27: .to(dtype=torch.int16)
        ("bits.py", 16, 12, "TRN131", MSG.format("torch.bitwise_xor"), False),
        # `wide` is assigned an int32 cast and then an int64 one: not every assignment is narrow
        ("bits.py", 22, 12, "TRN131", MSG.format("bitwise_left_shift"), False),
        # line 34: the dtype variable is int32 or int16 on every path; here it is a parameter (unknown width)
        ("bits.py", 38, 12, "TRN131", MSG.format("torch.bitwise_right_shift"), False),
    ]
