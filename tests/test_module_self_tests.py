"""A library module's own `__main__` smoke test that no command of the project runs
(trnready/project/self_tests.py), through the real CLI.

The fixture is copied out of this repository first: a scan whose root lies inside a project sees part of it only,
and the step then judges nothing."""
import json
import shutil

from conftest import FIXTURES, guard_reasons, guarded_rows, run_cli

ROOT = FIXTURES / "self_tests"
SELF_TEST = "module-self-test"




def test_main_blocks_of_imported_modules_nothing_runs_are_guarded(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    assert guarded_rows(tree) == [
        ("pkg/analysis.py", 19, 22, "TRN241", ""),  # the block's main() reads the command line
        ("pkg/cli_entry.py", 10, 18, "TRN241", ""),  # setup.cfg: `demo-run = pkg.cli_entry:main`
        ("pkg/detector.py", 12, 13, "TRN241", ""),  # README: `python pkg/detector.py image.jpg`
        ("pkg/helper.py", 9, 17, "TRN241", SELF_TEST),  # `from pkg import helper`
        # `test()`, called only by network.py's own block (model.py's `test` is another function); `check()` is
        # imported by model.py, so it is no part of the self-test alone
        ("pkg/network.py", 11, 11, "TRN241", SELF_TEST),
        ("pkg/network.py", 17, 12, "TRN241", ""),
        ("pkg/runner.py", 10, 5, "TRN243", ""),  # scripts/run.sh: `python -m pkg.runner`
        ("pkg/trainer.py", 15, 9, "TRN241", ""),  # reads a command line
        ("pkg/weight_drop.py", 11, 9, "TRN241", SELF_TEST),  # `from pkg.weight_drop import WeightDrop`
        ("standalone.py", 5, 11, "TRN241", ""),  # imported by nothing: a script
    ]


def test_without_the_default_report_the_self_test_is_left_out(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    proc = run_cli("scan", tree, "--format", "json", "--no-cache")
    got = sorted((f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"])
    assert ("pkg/weight_drop.py", 11) not in got and ("pkg/helper.py", 9) not in got
    assert ("standalone.py", 5) in got


def test_a_partial_scan_judges_nothing():
    # scanned in place, the fixture lies inside this repository: its importers may sit outside the scanned folder
    assert SELF_TEST not in guard_reasons(ROOT / "pkg")


def test_without_its_console_script_an_entry_function_is_part_of_the_self_test(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    (tree / "setup.cfg").unlink()
    assert ("pkg/cli_entry.py", 10, 18, "TRN241", SELF_TEST) in guarded_rows(tree)


HUBCONF = """import torch

dependencies = ['torch']


def melgan(pretrained=True):
    return torch.nn.Linear(80, 80)


if __name__ == '__main__':
    vocoder = torch.hub.load('seungwonpark/melgan', 'melgan')
    if torch.cuda.is_available():
        vocoder = vocoder.cuda()
"""


def test_the_main_block_of_the_hub_entry_file_is_a_self_test(tmp_path):
    # melgan: torch.hub.load imports the root hubconf.py for `melgan()`; its demo block runs only by hand. A
    # hubconf.py a README runs as a program (`python hubconf.py`) stays reported, as any module named so
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "hubconf.py").write_text(HUBCONF)
    (tree / "train.py").write_text("import torch\n\nmodel = torch.nn.Linear(80, 80).cuda()\n")
    assert [row for row in guarded_rows(tree) if row[0] == "hubconf.py"] == [
        ("hubconf.py", 12, 8, "TRN243", SELF_TEST), ("hubconf.py", 13, 19, "TRN241", "neuron-guarded")]
    (tree / "README.md").write_text("Try it: `python hubconf.py`\n")
    assert [row[4] for row in guarded_rows(tree) if row[0] == "hubconf.py"] == ["", "neuron-guarded"]


def _rows(tree, cwd, arg):
    proc = run_cli("scan", arg, "--format", "json", "--no-cache", "--show-guarded", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return sorted((f["path"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"])


def test_a_readme_below_the_root_counts_however_the_scan_path_is_spelled(tmp_path):
    # only pkg/README.md, below the root, names vision.py as a program: `scan .`, `scan tree` and an absolute path
    # must all read it (a relative spelling once left every folder below the root unread, and the block guarded)
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    (tree / "pkg" / "vision.py").write_text(
        "import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n\n\n"
        "if __name__ == \"__main__\":\n    print(build().cuda())\n")
    (tree / "model.py").write_text((tree / "model.py").read_text() + "from pkg.vision import build\n")
    absolute = _rows(tree, tmp_path, tree)
    assert ("pkg/vision.py", 9, SELF_TEST) in absolute  # nothing names it yet
    (tree / "pkg" / "README.md").write_text("Demo: `python pkg/vision.py`\n")
    absolute = _rows(tree, tmp_path, tree)
    assert ("pkg/vision.py", 9, "") in absolute
    assert _rows(tree, tmp_path, "tree") == absolute
    assert _rows(tree, tree, ".") == absolute
