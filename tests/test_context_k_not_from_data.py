"""k-not-from-data: topk is reported when its k is read out of tensor data."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

TOPK = "topk with k read out of tensor data: the number of values kept changes with the data"


def test_k_from_item_tolist_or_int_of_a_tensor_is_reported_a_parameter_or_literal_is_not():
    # lines 6-9: .item(), a part of .tolist(), int() of a torch tensor plus one; 10-12: a parameter, a literal,
    # min() of a parameter and a literal; 18: int() of arithmetic on the tensor's size (known before the data)
    assert [f[1:5] for f in scan_findings(CONTEXT_FIXTURES / "k_not_from_data", "--show-guarded")] == [
        (6, 12, "TRN104", TOPK),
        (8, 12, "TRN104", TOPK),
        (9, 12, "TRN104", TOPK),
    ]


def test_registered_as_a_drop():
    assert context.get("k-not-from-data").effect == "drop"
