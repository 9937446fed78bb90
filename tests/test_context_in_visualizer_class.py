"""in-visualizer-class: boolean-mask selection of what a visualiser draws is guarded; the model's is reported."""
from conftest import CONTEXT_FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_visualizer_methods_are_guarded():
    # pred[pred.scores > thr] in DetVisualizer.add_datasample (line 7) is guarded; Head.forward is reported
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "in_visualizer_class") if f[3] == "TRN104"] == [
        ("vis.py", 13, 16, "TRN104", MASK, False),
    ]
