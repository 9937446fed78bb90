"""split-mask-index: the ids of a dataset split taken once from its mask are not a dynamic shape to port; the same
op in a loop, or on a mask that is not a split (`valid_mask`), stays reported."""
import json

from conftest import CONTEXT_FIXTURES, run_cli, scan_findings

FIXTURE = CONTEXT_FIXTURES / "split_mask_index"
NONZERO = "Operation whose output shape depends on the data: `torch.nonzero`"


def test_split_ids_taken_once_are_dropped_and_the_rest_stay():
    got = [(p, line, col, rule, msg) for p, line, col, rule, msg, _ in scan_findings(FIXTURE) if rule == "TRN104"]
    assert got == [
        ("train.py", 10, 12, "TRN104", NONZERO),  # valid_mask: validity, not a split
        ("train.py", 13, 17, "TRN104", NONZERO),  # inside the training loop
    ]


def test_the_same_ops_on_masks_not_named_for_a_split_are_reported(tmp_path):
    text = (FIXTURE / "train.py").read_text()
    for split in ("train", "val", "test"):
        text = text.replace(f"{split}_mask", f"{split}_sel")
    (tmp_path / "train.py").write_text(text)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    got = [(f["line"], f["column"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN104"]
    # line 13, the same mask's indices again inside the loop, is a place of line 6's finding (one item per mask)
    assert got == [(6, 17, [(13, 17)]), (7, 15, []), (8, 16, []), (9, 12, []), (10, 12, [])]
