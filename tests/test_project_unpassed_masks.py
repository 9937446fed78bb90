"""Project step `unpassed-mask`: an attention mask that is a parameter no call of the project fills is None."""
from conftest import FIXTURES, scan_findings

ROOT = FIXTURES / "project" / "unpassed_mask"
SDPA = "scaled_dot_product_attention with an explicit attention mask: `torch.nn.functional.scaled_dot_product_attention`"


def test_masks_a_caller_passes_or_nobody_calls_stay_reported():
    assert scan_findings(ROOT / "hit") == [
        # `self.attn(x, mask=padding)` in block.py fills the parameter
        ("pkg/attention.py", 12, 16, "TRN171", SDPA, False),
        # a module nobody constructs and a function nobody calls: public API, callers unknown
        ("pkg/attention.py", 22, 16, "TRN171", SDPA, False),
        ("pkg/attention.py", 26, 12, "TRN171", SDPA, False),
        # Outer.forward forwards its `mask` to Inner, and `Outer()(q, k, v, mask=padding)` fills it
        ("pkg/layers.py", 7, 16, "TRN171", SDPA, False),
        # instances kept in an nn.ModuleList: their calls are not followed
        ("pkg/layers.py", 26, 16, "TRN171", SDPA, False)]


def test_masks_every_caller_omits_are_not_reported():
    # `self.attn1(x)`, `self.attn2(x, mask=None)` through forward -> forward_sdpa, and `pool(x)` / `self.pool(x)`
    # for the nn.MultiheadAttention key_padding_mask, and Chain.forward handing on a `mask` that `Chain(dim)(x)`
    # never fills: always None
    assert scan_findings(ROOT / "lookalike") == []
