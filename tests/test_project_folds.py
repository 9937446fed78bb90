"""Report step one_per_project (trnready/postprocess_project_folds.py): MMCV's fp16 machinery is one item."""
import json

from conftest import FIXTURES, run_cli


def _scan(path, *args):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_mmcv_fp16_decorators_are_places_of_the_switch():
    got = [(f["path"], f["line"], f["column"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
           for f in _scan(FIXTURES / "project_folds")]
    assert got == [("mmdet/apis/train.py", 7, 16, "TRN257", [
        ("mmdet/heads/bbox_head.py", 6), ("mmdet/heads/bbox_head.py", 10), ("mmdet/heads/mask_head.py", 6),
        ("tests/test_fp16.py", 5)])]


def test_without_a_switch_the_first_decorator_holds_the_others(tmp_path):
    for name in ("a_head.py", "b_head.py"):
        (tmp_path / name).write_text("from mmcv.runner import auto_fp16\n\n\nclass H:\n    @auto_fp16()\n"
                                     "    def forward(self, x):\n        return x\n")
    got = [(f["path"], f["line"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
           for f in _scan(tmp_path)]
    assert got == [("a_head.py", 5, [("b_head.py", 5)])]


def test_a_project_fold_needs_a_listed_rule():
    from trnready.postprocess_project_folds import one_per_project

    assert one_per_project(["anything"], frozenset()) == ["anything"]
