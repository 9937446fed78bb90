"""moved-after: an operation on tensors its function moves to a device only afterwards ran on the host."""
from conftest import CONTEXT_FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
SELECT = "Operation whose output shape depends on the data: `masked_select`"
BILINEAR = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
CUDA = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_operations_before_the_move_are_guarded():
    # guarded: a result returned to the one caller that moves it (mask_out, mask_tokens), a selection handed to
    # the project's `to_cuda` and bound again (clm_step), a resize kept only as its moved copy (resize_then_move).
    # Kept: a resize moved in passing (`head(small.cuda())`, 44), an operand already moved (moved_first), the name
    # bound again before the move, `.to(other.device)`, a dtype cast, a helper the file also stores in a table,
    # whose other users may keep the result where it is.
    assert scan_findings(CONTEXT_FIXTURES / "moved_after", "--show-guarded") == [
        ("prep.py", 10, 18, "TRN104", MASK, True),
        ("prep.py", 19, 13, "TRN104", SELECT, True),
        ("prep.py", 26, 14, "TRN104", MASK, True),
        ("prep.py", 38, 13, "TRN191", BILINEAR, True),
        ("prep.py", 39, 13, "TRN241", CUDA, False),
        ("prep.py", 44, 13, "TRN191", BILINEAR, False),
        ("prep.py", 45, 17, "TRN241", CUDA, False),
        ("prep.py", 50, 12, "TRN104", MASK, False),
        ("prep.py", 55, 9, "TRN104", MASK, False),
        ("prep.py", 61, 9, "TRN104", MASK, False),
        ("prep.py", 66, 9, "TRN104", MASK, False),
        ("prep.py", 71, 12, "TRN104", MASK, False),
        ("utils.py", 2, 36, "TRN241", CUDA + "; to_cuda() called at prep.py:15, prep.py:20", False),
    ]


def test_guarded_findings_name_the_predicate():
    import json

    from conftest import run_cli

    out = json.loads(run_cli("scan", CONTEXT_FIXTURES / "moved_after", "--format", "json", "--no-cache",
                             "--show-guarded").stdout)
    assert {(f["line"], f["guarded_by"]) for f in out["findings"] if f["guarded"]} == {
        (10, "moved-after"), (19, "moved-after"), (26, "moved-after"), (38, "moved-after")}


def test_a_move_in_an_arm_the_operation_is_not_in_runs_on_that_path_only():
    # YOLOX's get_assignments: the `.cuda()` of an out-of-memory CPU fallback (`if mode == "cpu":`) does not say
    # where the default path's tensors are: the mask stays reported; a move on every path after it guards it
    got = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "moved_after_branch", "--show-guarded")
           if f[3] == "TRN104"]
    assert got == [("assign.py", 7, "TRN104", False), ("assign.py", 14, "TRN104", True)]
