"""not-pairwise-mask: TRN175 reports a model call given a mask shown per pair (batch x query x key) in the function."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "A per-pair attention mask (one entry per query and key) handed to a model as attention_mask: its SDPA " \
      "attention runs with an arbitrary mask"


def test_per_pair_masks_are_reported_and_padding_masks_are_not():
    # blind58 class (UniXcoder, CodeExecutor: the encoder's outer product of padding masks, the decoder's slice of
    # a square causal buffer and-ed with padding). Not reported: a padding mask (`ids.ne(1)`, a batch's
    # "attention_mask"), and a parameter whose shape the function does not show (GraphCodeBERT's dataset masks).
    got = [f for f in scan_findings(CONTEXT_FIXTURES / "not_pairwise_mask", "--no-config") if f[3] == "TRN175"]
    assert got == [
        ("seq2seq.py", 14, 66, "TRN175", MSG, False),
        ("seq2seq.py", 18, 56, "TRN175", MSG, False),
    ]
