"""reaching-positions: `x[keep]` whose binding reaching the use holds integer positions (a project's NMS wrapper,
cut to a fixed count) is no boolean-mask selection; a boolean `keep` of another arm, or positions bound in one arm
only, leave it reported."""
from conftest import CONTEXT_FIXTURES, scan_findings

FIXTURE = CONTEXT_FIXTURES / "reaching_positions"
MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_positions_reaching_the_index_are_dropped_and_masks_stay():
    got = [(p, line, col, rule, msg) for p, line, col, rule, msg, _ in scan_findings(FIXTURE) if rule == "TRN104"]
    assert got == [
        ("heads.py", 10, 16, "TRN104", MASK),  # the boolean keep of the score threshold
        ("heads.py", 27, 12, "TRN104", MASK),  # the NMS positions reach only from one arm
        ("heads.py", 35, 18, "TRN104", MASK),  # a three-argument torch.where picks values: still a boolean mask
    ]


def test_without_the_positions_every_index_is_a_mask(tmp_path):
    text = (FIXTURE / "heads.py").read_text()
    text = text.replace("keep = nms_func(bbox, obj_scores, cfg.iou_thr)", "keep = obj_scores > cfg.iou_thr")
    text = text.replace("keep = _box_nms(boxes, score, thresh)", "keep = score > thresh")
    (tmp_path / "heads.py").write_text(text)
    got = [line for _, line, _, rule, _, _ in scan_findings(tmp_path) if rule == "TRN104"]
    assert got == [10, 20, 27, 35]  # line 13 indexes with the same `keep` as line 10: one mask per function, folded
