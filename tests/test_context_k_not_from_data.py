"""k-not-from-data: topk is reported when its k is read out of tensor data."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

TOPK = "topk with k read out of tensor data: the number of values kept changes with the data"


def test_k_from_item_tolist_or_int_of_a_tensor_is_reported_a_parameter_or_literal_is_not():
    # lines 6-9: .item(), a part of .tolist(), int() of a torch tensor plus one; 10-12: a parameter, a literal,
    # min() of a parameter and a literal; 18: int() of arithmetic on the tensor's size (known before the data)
    assert [f[1:5] for f in scan_findings(CONTEXT_FIXTURES / "k_not_from_data" / "assign.py", "--show-guarded")] == [
        (6, 12, "TRN104", TOPK),
        (8, 12, "TRN104", TOPK),
        (9, 12, "TRN104", TOPK),
    ]


def test_k_through_a_conditional_expression_and_the_reads_are_places():
    # neighbours.py 9: k is either arm of `m if sparse else (k + m)` with m read by .item() on line 6; 16: k bound by
    # int(....item()) in a branch on line 15; 22: k parsed from a string (known before the data) is not reported
    import json
    from conftest import run_cli

    proc = run_cli("scan", CONTEXT_FIXTURES / "k_not_from_data" / "neighbours.py", "--format", "json", "--no-cache")
    got = [(f["line"], f["column"], f["rule"], f["message"],
            sorted((o["line"], o["column"]) for o in f["occurrences"])) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        # places: the read of the data (6) and the assignment of the size (7: the conditional expression)
        (9, 23, "TRN104", TOPK, [(6, 19), (7, 18)]),
        (16, 17, "TRN104", TOPK, [(15, 23), (15, 27)]),  # the assignment int(...) and its .item() read
    ]


def test_registered_as_a_drop():
    assert context.get("k-not-from-data").effect == "drop"
