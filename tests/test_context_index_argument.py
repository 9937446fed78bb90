"""index-argument: a mask-named parameter that every caller fills with integer positions is an index."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = ("Indexing with `{}`, a mask by its name: a boolean mask keeps one row per True value, a size known only "
       "at run time")


def test_parameters_given_positions_are_silent_boolean_or_unknown_callers_are_reported():
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "index_argument", "--select", "TRN104")
            if f[0] != "positions_list.py"] == [
        # lines 6 and 11: every caller passes idx_* names, randperm slices or such parameters;
        # line 33: `mask_train = idx_train` is another name for positions (masks.named_mask)
        ("graph.py", 24, 12, "TRN104", MSG.format("keep_mask"), False),  # one caller passes `scores > 0`
        ("graph.py", 38, 12, "TRN104", MSG.format("mask"), False),  # no caller in the file
    ]


def test_a_local_list_of_positions_in_a_tuple_index_is_no_mask():
    # Payload_gnn's anomaly scores (fresh83): `res[:, valid_dims]` with `valid_dims = [d for d in HIGH if d < n]`
    # selects columns by position (line 10: silent); a list of truth values (`[True, False] * 12`, a comprehension
    # of comparisons) and a comparison of tensors are boolean masks and stay
    found = [f[:4] for f in scan_findings(CONTEXT_FIXTURES / "index_argument", "--select", "TRN104")
             if f[0] == "positions_list.py"]
    assert found == [("positions_list.py", 12, 9, "TRN104"), ("positions_list.py", 14, 9, "TRN104"),
                     ("positions_list.py", 16, 9, "TRN104")]
