"""Shell launchers none of whose Python programs exists in the repository (trnready/project/stale_launchers.py),
through the real CLI.

The fixture is copied out of this repository first: a scan whose root lies inside a project sees part of it only,
and the step then judges nothing."""
import json
import shutil

from conftest import FIXTURES, guard_reasons, guarded_rows, run_cli

ROOT = FIXTURES / "stale_launchers"
STALE = "stale-launcher"


def test_a_launcher_whose_programs_are_all_missing_is_guarded(tmp_path):
    tree = _copy(tmp_path)
    assert guarded_rows(tree) == [
        ("scripts/deleted.sh", 3, 1, "TRN605", STALE),  # train/gone.py: deleted from a folder of the project
        ("scripts/elsewhere.sh", 3, 1, "TRN605", ""),  # run_glue.py was never in the repository
        ("scripts/fetched.sh", 3, 1, "TRN605", ""),  # `git clone` may bring the program
        ("scripts/from_cd.sh", 3, 1, "TRN605", ""),  # `cd ../train` then `python real.py`
        ("scripts/in_container.sh", 3, 17, "TRN610", ""),  # `docker run ... python3 old_name.py`: the container's path
        ("scripts/kept.sh", 2, 1, "TRN605", ""),  # train/real.py, from the root
        ("scripts/mixed.sh", 3, 1, "TRN605", ""),  # one of its two programs is there
        ("scripts/module.sh", 2, 1, "TRN605", ""),  # `python -m train.real`
        ("scripts/moved.sh", 3, 1, "TRN605", STALE),  # train/old_name.py moved to train/archive/
        ("scripts/no_program.sh", 2, 8, "TRN605", ""),  # `torchrun ... $ENTRY`: a program it does not name
        ("scripts/no_program.sh", 3, 27, "TRN613", ""),
        ("scripts/on_path.sh", 3, 1, "TRN605", ""),  # `. ./path.sh`: a bare `old_name.py` may be on the PATH (Kaldi)
        ("scripts/variable.sh", 2, 1, "TRN605", ""),  # `$ROOT/old_name.py`
    ]


def test_the_stale_launcher_is_left_out_of_the_default_report(tmp_path):
    tree = _copy(tmp_path)
    proc = run_cli("scan", tree, "--format", "json", "--no-cache")
    paths = {f["path"] for f in json.loads(proc.stdout)["findings"]}
    assert "scripts/moved.sh" not in paths and "scripts/kept.sh" in paths


def test_once_the_program_is_back_the_launcher_is_reported(tmp_path):
    tree = _copy(tmp_path)
    (tree / "train" / "archive" / "old_name.py").rename(tree / "train" / "old_name.py")
    assert ("scripts/moved.sh", 3, 1, "TRN605", "") in guarded_rows(tree)


def test_a_partial_scan_judges_nothing():
    assert STALE not in guard_reasons(ROOT)


def _copy(tmp_path):
    """The fixture copied out of this repository, where a scan sees the whole project."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    return tree
