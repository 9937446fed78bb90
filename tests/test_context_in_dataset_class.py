"""in-dataset-class: boolean-mask indexing in a dataset class runs on the host and is not reported."""
from conftest import CONTEXT_FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_dataset_methods_are_host_side():
    # row[row > 0] in Pairs.__getitem__ (line 8) is silent; the module's forward is reported
    assert scan_findings(CONTEXT_FIXTURES / "in_dataset_class") == [
        ("data.py", 13, 16, "TRN104", MASK, False),
    ]
