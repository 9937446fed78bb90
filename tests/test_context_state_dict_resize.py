"""state-dict-resize: a position table resized as a checkpoint loads is no device op; a forward's resize is."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

UP = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
CALLED = "; resize_pos_embed_1d() called at backbone.py:59, backbone.py:62"
LOAD = "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks"


def test_checkpoint_resizes_are_dropped_and_forward_resizes_kept():
    # Dropped: nougat's Swin table (`swin_state_dict[x].unsqueeze(0)[0]`, reshaped under the same name), MapTR's
    # mmseg `resize` of `state_dict[key]` permuted, an item of `torch.load(...)`, the values of a state dict loop, Vim's
    # multi-line resize of a checkpoint slice written back under the same name, a helper's table parameter when every
    # call hands it a checkpoint item (ImageEncoder.resize_table). Kept: the same helper also called from forward
    # with the module's own parameter (TextEncoder.resize_pos_embed_1d, line 54).
    # Kept: the module's own parameter resized in forward, the input itself, a parameter named `state`.
    assert scan_findings(CONTEXT_FIXTURES / "state_dict_resize") == [
        ("backbone.py", 25, 22, "TRN351", LOAD, False),
        ("backbone.py", 34, 15, "TRN191", UP, False),
        ("backbone.py", 39, 12, "TRN191", UP, False),
        ("backbone.py", 54, 16, "TRN191", UP + CALLED, False),
    ]


def test_registered_for_call_matchers():
    p = context.get("state-dict-resize")
    assert p.kinds == ("call",) and p.effect == "drop" and "checkpoint" in p.doc
