"""state-dict-resize: a position table resized as a checkpoint loads is host work; a forward's resize is not."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_checkpoint_resizes_are_guarded_and_forward_resizes_kept():
    # Guarded: nougat's Swin table (`swin_state_dict[x].unsqueeze(0)[0]`, reshaped under the same name, line 16),
    # MapTR's mmseg `resize` of `state_dict[key]` from mmcv's `_load_checkpoint` (25), the values of a state dict
    # loop (29), Vim's multi-line resize of a checkpoint slice written back under the same name (47), a helper's table
    # parameter when every call hands it an item of weights loaded onto the CPU (ImageEncoder.resize_table, 68).
    # Kept: an item of `torch.load(path)` without map_location, which restores CUDA tensors (27); the module's own
    # parameter resized in forward (35); the input itself (40); the same helper also called from forward with the
    # module's own parameter (TextEncoder.resize_pos_embed_1d, 55).
    proc = run_cli("scan", CONTEXT_FIXTURES / "state_dict_resize", "--format", "json", "--no-cache", "--no-config",
                   "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    found = [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by"))
             for f in json.loads(proc.stdout)["findings"]]
    assert found == [
        ("backbone.py", 16, 24, "TRN191", "state-dict-resize"),
        ("backbone.py", 25, 19, "TRN191", "state-dict-resize"),
        ("backbone.py", 26, 22, "TRN351", None),
        ("backbone.py", 27, 16, "TRN191", None),
        ("backbone.py", 29, 29, "TRN191", "state-dict-resize"),
        ("backbone.py", 35, 15, "TRN191", None),
        ("backbone.py", 40, 12, "TRN191", None),
        ("backbone.py", 47, 18, "TRN191", "state-dict-resize"),
        ("backbone.py", 55, 16, "TRN191", None),
        ("backbone.py", 68, 16, "TRN191", "state-dict-resize"),
    ]


def test_registered_for_call_matchers():
    p = context.get("state-dict-resize")
    assert p.kinds == ("call",) and p.effect == "guard" and "checkpoint" in p.doc
