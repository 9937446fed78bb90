"""all-true-mask: an SDPA mask that is True everywhere masks nothing; masks written into or added stay."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = ("scaled_dot_product_attention with an explicit attention mask: "
       "`torch.nn.functional.scaled_dot_product_attention`")


def test_all_true_masks_are_silent_changed_triangular_and_float_masks_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "all_true_mask", "--select", "TRN171") == [
        # line 8 (a module-level ones mask) and line 14 (torch.ones and torch.full(..., True)) mask nothing
        ("attention.py", 22, 9, "TRN171", MSG, False),  # m[:, 4:] = False writes into it
        # three different masks are three items (neighbouring calls fold only when they pass the same mask);
        # line 23's bool lower triangle is causal for SDPA: TRN174 (causal-built-mask), not this rule
        ("attention.py", 24, 9, "TRN171", MSG, False),
    ]
