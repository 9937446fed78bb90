"""dtype-table: a dictionary whose values are all dtypes translates names; it uses none of them."""
from conftest import CONTEXT_FIXTURES, scan_findings

F64 = "float64 or complex128 dtype: `torch.float64`"


def test_entries_of_dtype_tables_are_silent():
    # lines 4-5 are tables (every value a dtype); line 12 mixes a dtype with other values, so it is a use
    assert scan_findings(CONTEXT_FIXTURES / "dtype_table") == [
        ("dtypes.py", 9, 17, "TRN121", F64, False),
        ("dtypes.py", 12, 19, "TRN121", F64, False),
    ]
