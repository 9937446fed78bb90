"""all-ones-input: nonzero / argwhere of a tensor built all ones has a size fixed by its shape."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_all_ones_inputs_are_dropped_and_data_masks_stay():
    found = sorted((f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "all_ones_input")
                   if f[3] == "TRN104")
    assert found == [
        ("grids.py", 21, "TRN104"),  # written after it is built
        ("grids.py", 27, "TRN104"),  # filled in place
        ("grids.py", 32, "TRN104"),  # a comparison of data
        ("grids.py", 36, "TRN104"),  # full of zeros
        ("grids.py", 40, "TRN104"),  # a parameter
    ]


def test_registered_as_a_drop_for_calls_and_methods():
    p = context.get("all-ones-input")
    assert p.effect == "drop" and set(p.kinds) == {"call", "method"}
