"""Methods nothing calls (trnready/project/uncalled_methods.py), through the real CLI.

The fixture is copied out of this repository first: a scan whose root lies inside a project sees part of it only,
and the step then judges nothing."""
import shutil

from conftest import FIXTURES, guard_reasons, guarded_rows

ROOT = FIXTURES / "uncalled_methods"
UNCALLED = "never-called-method"




def test_methods_no_file_names_are_guarded(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    assert guarded_rows(tree) == [
        ("build.py", 8, 16, "TRN243", ""),  # a base from elsewhere (setuptools' build_ext) calls it
        ("dispatch.py", 7, 16, "TRN241", ""),  # its file looks methods up by computed names
        ("loss.py", 9, 13, "TRN241", UNCALLED),  # FocalLoss.focal_loss: forward calls focal_loss_alt only
        ("loss.py", 13, 13, "TRN241", ""),  # focal_loss_alt: called by forward
        ("loss.py", 23, 9, "TRN243", ""),  # on_epoch_end: a hook name a framework calls
        ("loss.py", 29, 16, "TRN241", ""),  # warmup: a config names it
        ("loss.py", 33, 16, "TRN241", ""),  # export_onnx: the README shows it
    ]


def test_each_reason_to_keep_a_method_is_needed(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    (tree / "configs" / "train.yaml").write_text("schedule:\n  hook: none\n")
    (tree / "README.md").write_text("# demo\n")
    loss = tree / "loss.py"
    loss.write_text(loss.read_text().replace("on_epoch_end", "finish"))
    build = tree / "build.py"
    build.write_text(build.read_text().replace("(build_ext)", "(object)"))
    dispatch = tree / "dispatch.py"
    dispatch.write_text(dispatch.read_text().replace('"run_" + mode', '"run_fast"'))  # a literal name is a mention
    assert guarded_rows(tree) == [
        ("build.py", 8, 16, "TRN243", UNCALLED),
        ("dispatch.py", 7, 16, "TRN241", ""),
        ("loss.py", 9, 13, "TRN241", UNCALLED),
        ("loss.py", 13, 13, "TRN241", ""),
        ("loss.py", 23, 9, "TRN243", UNCALLED),
        ("loss.py", 29, 16, "TRN241", UNCALLED),
        ("loss.py", 33, 16, "TRN241", UNCALLED),
    ]


def test_a_partial_scan_judges_nothing():
    assert UNCALLED not in guard_reasons(ROOT)
