"""causal-built-mask: a mask the file builds as plain causal is TRN174 (add the causal flag); a causal mask with
anything added, sliced, written into, shifted, not square, or passed by an unknown caller stays a blocker."""
from conftest import CONTEXT_FIXTURES, scan_findings

CHANGE = "Attention called with a causal mask built in this file, without the causal flag: `{}`"
MHA = ("nn.MultiheadAttention called with a padding mask or a non-causal attention mask: "
       "`torch.nn.MultiheadAttention.__call__`")
SDPA = ("scaled_dot_product_attention with an explicit attention mask: "
        "`torch.nn.functional.scaled_dot_product_attention`")
TRANSFORMER = ("nn.Transformer / TransformerEncoder / TransformerDecoder (layer) called with a padding or non-causal "
               "mask: `torch.nn.Transformer.__call__`")


def test_causal_masks_built_in_the_file_are_a_change_and_every_other_mask_stays_a_blocker():
    assert scan_findings(CONTEXT_FIXTURES / "causal_built_mask", "--select", "TRN171,TRN172,TRN173,TRN174") == [
        # SDPA's convention (True = takes part): a bool lower triangle with its diagonal is causal, directly or
        # cast with .bool() and moved with .to(); float ones (an additive 0/1 mask) and tril(-1) are not, and
        # nn.MultiheadAttention reads the same bool lower triangle the other way round (True = masked out)
        ("keep_lower.py", 8, 12, "TRN174", CHANGE.format("torch.nn.functional.scaled_dot_product_attention"), False),
        ("keep_lower.py", 13, 12, "TRN174", CHANGE.format("torch.nn.functional.scaled_dot_product_attention"),
         False),
        ("keep_lower.py", 18, 12, "TRN171", SDPA, False),
        ("keep_lower.py", 23, 12, "TRN171", SDPA, False),
        ("keep_lower.py", 33, 16, "TRN172", MHA, False),
        # a constructor argument passed by one site as a causal mask and by another as a caller's mask
        ("mixed_sites.py", 13, 16, "TRN172", MHA, False),
        # a class never built in the file: its mask is not known
        ("mixed_sites.py", 28, 16, "TRN172", MHA, False),
        # written into after it was built
        ("mixed_sites.py", 39, 16, "TRN172", MHA, False),
        # a forward parameter given a causal default only when the caller passes none
        ("mixed_sites.py", 50, 16, "TRN172", MHA, False),
        # bool triu(1) buffer (True = masked out for nn.MultiheadAttention); a module function returning triu(-inf, 1)
        ("shapes.py", 20, 13, "TRN174", CHANGE.format("torch.nn.MultiheadAttention.__call__"), False),
        # (each call passes another mask, so neighbouring calls are separate items, not one run: session 17)
        ("shapes.py", 21, 13, "TRN174", CHANGE.format("torch.nn.MultiheadAttention.__call__"), False),
        # causal + padding, sliced, diagonal 0, not square
        ("shapes.py", 22, 13, "TRN172", MHA, False),
        ("shapes.py", 23, 13, "TRN172", MHA, False),
        ("shapes.py", 24, 13, "TRN172", MHA, False),
        ("shapes.py", 25, 13, "TRN172", MHA, False),
        # SDPA reads True as "may attend": a bool triu(1) mask is not causal there (line 33); the float one is
        # (line 32, folded into the finding of line 33)
        ("shapes.py", 33, 9, "TRN171", SDPA, False),
        # the library's generate_square_subsequent_mask, unchanged
        ("shapes.py", 39, 11, "TRN174", CHANGE.format("torch.nn.Transformer.__call__"), False),
        # ... and with padding written into it
        ("shapes.py", 42, 17, "TRN173", TRANSFORMER, False),
        # CLIP-style: empty, fill_(-inf), triu_(1) in a method, through two constructors; the other tower passes none
        ("text_tower.py", 14, 16, "TRN174", CHANGE.format("torch.nn.MultiheadAttention.__call__"), False),
    ]
