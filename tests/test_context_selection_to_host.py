"""selection-to-host: rows a boolean mask selects that only go to the host are no device shape."""
from conftest import CONTEXT_FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_only_selections_read_on_the_device_stay():
    # to_host: counted, then `.detach().cpu().numpy()`; counted_only: no host hand-off, stays (a count of rows
    # is still a data-dependent size); used_on_device: a head reads the rows
    assert scan_findings(CONTEXT_FIXTURES / "selection_to_host") == [
        ("sel.py", 13, 14, "TRN104", MASK, False),
        ("sel.py", 18, 14, "TRN104", MASK, False),
    ]
