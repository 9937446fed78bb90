"""evaluation-code: data-dependent shapes in metric code that runs once per evaluation cost nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_evaluation_code_is_guarded_training_and_compiled_code_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "evaluation_code", "--show-guarded") == [
        # on_evaluate: inside the loop over the data loader it runs for every batch; after it, once
        ("proj/callbacks.py", 9, 25, "TRN104", MASK, False),
        ("proj/callbacks.py", 11, 16, "TRN104", MASK, True),
        # the file compiles its function: it may be traced
        ("proj/compiled/metrics/fast.py", 6, 12, "TRN104",
         "Operation whose output shape depends on the data: `torch.unique`", False),
        ("proj/curves.py", 6, 12, "TRN104", MASK, True),  # a metric's *_compute function
        ("proj/curves.py", 11, 18, "TRN104", MASK, False),  # the training step
        # a detector's mAP over accumulated detections runs once per evaluation; a training helper stays
        ("proj/detection_eval.py", 7, 23, "TRN104", MASK, True),
        ("proj/detection_eval.py", 14, 12, "TRN104", MASK, False),
        # metrics/ alone says nothing: a helper may run for every batch, and a metric's update does
        ("proj/metrics/auc.py", 5, 13, "TRN104", MASK, False),
        ("proj/metrics/auc.py", 11, 26, "TRN104", MASK, False),
    ]


def test_registered_as_a_guard():
    assert context.get("evaluation-code").effect == "guard"
