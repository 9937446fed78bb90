"""mask-never-passed: a mask parameter every call in the file leaves at None is no mask; one a caller fills is."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = ("nn.MultiheadAttention called with a padding mask or a non-causal attention mask: "
       "`torch.nn.MultiheadAttention.__call__`")


def test_a_mask_left_at_none_by_every_caller_is_silent_and_one_a_caller_fills_is_reported():
    # `mask` is never passed (Stack calls each block with `pad=` only); `pad` is handed down from Stack, which
    # Top calls without it but Padded calls with a padding mask: the call is reported once, for the padding mask
    assert scan_findings(CONTEXT_FIXTURES / "mask_never_passed", "--select", "TRN172") == [
        ("blocks.py", 10, 16, "TRN172", MSG, False),
    ]


def test_without_the_caller_that_fills_the_padding_mask_the_call_is_plain_attention(tmp_path):
    text = (CONTEXT_FIXTURES / "mask_never_passed" / "blocks.py").read_text()
    (tmp_path / "blocks.py").write_text(text.split("\n\nclass Padded")[0] + "\n")
    assert scan_findings(tmp_path, "--select", "TRN172") == []
