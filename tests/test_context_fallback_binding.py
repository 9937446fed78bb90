"""fallback-binding: a name imported in a `try` and again in its ImportError handler runs on the Python at hand."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_a_name_bound_by_both_arms_of_an_import_fallback_is_not_a_removed_api():
    # data_utils.py:11 reads `Iterable`, which the `try` binds from collections.abc (fairseq's data_utils.py,
    # fresh60); line 13's `collections.Mapping` has no such fallback and stays
    assert scan_findings(CONTEXT_FIXTURES / "fallback_binding", "--no-config", "--select", "TRN321") == [
        ("data_utils.py", 13, 31, "TRN321", "Standard-library API removed before Python 3.12: `collections.Mapping` "
                                            "(fails on every Python TorchNeuron runs on)", False),
    ]
