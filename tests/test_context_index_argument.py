"""index-argument: a mask-named parameter that every caller fills with integer positions is an index."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = ("Indexing with `{}`, a mask by its name: a boolean mask keeps one row per True value, a size known only "
       "at run time")


def test_parameters_given_positions_are_silent_boolean_or_unknown_callers_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "index_argument", "--select", "TRN104") == [
        # lines 6 and 11: every caller passes idx_* names, randperm slices or such parameters;
        # line 33: `mask_train = idx_train` is another name for positions (masks.named_mask)
        ("graph.py", 24, 12, "TRN104", MSG.format("keep_mask"), False),  # one caller passes `scores > 0`
        ("graph.py", 38, 12, "TRN104", MSG.format("mask"), False),  # no caller in the file
    ]
