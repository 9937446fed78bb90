"""encoder-never-padded: a TransformerEncoder never called with a key padding mask builds no NestedTensor."""
from conftest import CONTEXT_FIXTURES, scan_findings

NESTED = "nn.TransformerEncoder with the nested-tensor fast path enabled (the default): `torch.nn.TransformerEncoder`"


def test_encoders_never_given_a_padding_mask_are_silent():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "encoder_never_padded") if f[3] == "TRN152"]
    # silent: called with the input only (11), with a causal mask beside the padding mask (20), never called, only
    # its layers (29), a local encoder called with the input only (79)
    assert found == [
        ("models.py", 40, 23, "TRN152", NESTED, False),  # called with src_key_padding_mask
        ("models.py", 49, 20, "TRN152", NESTED, False),  # the padding mask passed by position
        ("models.py", 58, 23, "TRN152", NESTED, False),  # handed out by a method: its calls are elsewhere
        ("models.py", 67, 23, "TRN152", NESTED, False),  # **kw may hold the padding mask
        ("models.py", 74, 11, "TRN152", NESTED, False),  # a local encoder called with a padding mask
    ]
