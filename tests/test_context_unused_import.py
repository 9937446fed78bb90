"""unused-import: a CUDA-only name imported and never used, whose import fails nothing, is guarded."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_unused_names_whose_import_fails_nothing_are_guarded():
    proc = run_cli("scan", CONTEXT_FIXTURES / "unused_import", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by", ""))
           for f in json.loads(proc.stdout)["findings"] if f["category"] == "cuda-library"]
    assert got == [
        # ModulatedDeformConv, imported with DeformConv from detectron2.layers, is built: the import is reported
        ("demo.py", 2, "TRN296", ""),
        # an optional import nothing uses: the handler goes on (its `from apex import amp` sibling is a place of the
        # amp call, guarded with it: `amp` is None without apex)
        ("demo.py", 5, "TRN283", "unused-import"),
        # unused, but a plain `import apex` fails where apex is missing: reported
        ("script.py", 1, "TRN283", ""),
    ]


def test_a_name_from_a_module_imported_anyway_that_nothing_uses_is_guarded(tmp_path):
    (tmp_path / "vovnet.py").write_text("from detectron2.layers import Conv2d, DeformConv\n\n\n"
                                        "def stem(c):\n    return Conv2d(c, c, 3)\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert [(f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]] == [
        (1, "TRN296", "unused-import")]


def test_registered_as_a_guard_for_imports():
    p = context.get("unused-import")
    assert p.effect == "guard" and p.kinds == ("import",)
