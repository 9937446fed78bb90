"""literal-constant-table: a float64 tensor of literal numbers built at import time on the host is no finding."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

F64 = "float64 or complex128 dtype: `torch.float64`"


def test_import_time_tables_of_literal_numbers_are_guarded():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "literal_constant_table", "--show-guarded")
             if f[3] in ("TRN121", "TRN122")]
    assert found == [
        # a file that sets a default device builds its tables there
        ("default_device.py", 4, 40, "TRN121", F64, False),
        ("kept.py", 4, 41, "TRN121", F64, False),  # made from a tensor
        ("kept.py", 8, 43, "TRN121", F64, False),  # made in a function
        ("moved.py", 3, 40, "TRN121", F64, False),  # moved in the same statement
        ("placed.py", 3, 44, "TRN121", F64, False),  # device="cuda"
        # an fp of fresh29 (torchdiffeq): Python floats computed through a float64 scalar; lines 12-14 (a
        # tableau), 19-20 (lists the module binds) and 22 (comprehensions over them) are places of this finding
        ("tableau.py", 8, 44, "TRN121", F64, True),
        # B was rebound on line 20 to tensors: their elements are no Python numbers
        ("tableau.py", 23, 58, "TRN121", F64, False),
        ("tableau.py", 24, 10, "TRN122", "Tensor cast to double: `double`", True),
        ("tableau.py", 28, 40, "TRN121", F64, True),  # a class attribute, outside any method
    ]


def test_registered_as_a_guard_for_references_and_methods():
    p = context.get("literal-constant-table")
    assert p.effect == "guard" and set(p.kinds) == {"reference", "method"}
