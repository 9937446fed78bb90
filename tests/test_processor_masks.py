"""processor-mask-unset: attention processors the library calls with a mask no code of the project passes."""
import ast

from conftest import CONTEXT_FIXTURES, scan_findings

FIX = CONTEXT_FIXTURES / "processor_masks"


def _masks(name):
    return [(f[0], f[1], f[3], f[5]) for f in scan_findings(FIX / name, "--show-guarded")
            if f[3] in ("TRN171", "TRN172")]


def test_processors_of_a_unet_called_without_a_mask_are_guarded():
    # line 15: prepared and reshaped only when not None; line 21: the mask by position in an nn.Module processor;
    # line 29: a mask the processor builds itself stays
    assert _masks("unset") == [("adapter/processors.py", 15, "TRN171", True),
                               ("adapter/processors.py", 21, "TRN171", True),
                               ("adapter/processors.py", 29, "TRN171", False)]


def test_a_unet_call_with_a_mask_keeps_them():
    assert [g for *_, g in _masks("passed")] == [False, False, False]


def test_an_encoder_attention_mask_anywhere_keeps_them():
    assert [g for *_, g in _masks("encoder_mask")] == [False, False, False]


def test_a_processor_call_with_a_splat_keeps_them():
    # the project's own block calls its processor with **extra, which may carry attention_mask
    assert [g for *_, g in _masks("other_mask")] == [False, False, False]


def test_keeps_none_unit():
    from trnready.project.processor_masks import _keeps_none

    def e(src):
        return ast.parse(src, mode="eval").body

    assert _keeps_none(e("attn.prepare_attention_mask(attention_mask, n, b)"))
    assert _keeps_none(e("attention_mask.to(x.dtype).view(b, h, -1, n)"))
    assert _keeps_none(e("attention_mask[:, None] if attention_mask is not None else None"))
    assert not _keeps_none(e("attn.prepare_attention_mask(other, n, b)"))
    assert not _keeps_none(e("torch.ones(n, n)"))
    assert not _keeps_none(e("make_mask(attention_mask)"))
