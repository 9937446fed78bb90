"""bench/recall.py: where a labelled location counts as found."""
from bench.recall import spans_by_location


def test_a_place_folded_from_another_rule_counts_under_that_rule_s_category():
    # `target.cuda(async=True)`: the TRN241 move is a place of the TRN323 finding (fix-covers); a cuda-device label
    # on that line is found through it, an environment label through the finding itself
    report = {"findings": [{"rule": "TRN323", "category": "environment", "path": "train.py", "line": 6, "column": 36,
                            "occurrences": [{"line": 6, "column": 18, "rule": "TRN241"}]}]}
    spans = spans_by_location(report)
    assert spans[("train.py", "environment")] == [(6, 6, "TRN323")]
    assert spans[("train.py", "cuda-device")] == [(6, 6, "TRN241")]


def test_a_place_of_the_same_rule_counts_under_the_finding_s_category():
    report = {"findings": [{"rule": "TRN241", "category": "cuda-device", "path": "a.py", "line": 3, "column": 5,
                            "occurrences": [{"line": 4, "column": 5, "rule": "TRN241"}]}]}
    assert spans_by_location(report)[("a.py", "cuda-device")] == [(3, 3, "TRN241"), (4, 4, "TRN241")]
