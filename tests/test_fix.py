"""`trnready fix` through the real command line: fixture pairs, idempotence, re-scan, safety."""
from dataclasses import replace
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, run_cli

FIX = FIXTURES / "fix"
PAIRS = sorted(p.name[: -len(".in.py")] for p in FIX.glob("*.in.py"))


def fix_args(src: Path) -> list:
    """The first line of a fixture says which flags it runs with: `# fix-args: --unsafe ...`."""
    first = src.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# fix-args:"), src
    args = first.split(":", 1)[1].split()
    return [] if args == ["(none)"] else args


def copy_in(tmp_path: Path, name: str) -> Path:
    dst = tmp_path / f"{name}.py"
    shutil.copyfile(FIX / f"{name}.in.py", dst)
    return dst


def scan(path):
    proc = run_cli("scan", "--format", "json", "--exit-zero", path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_every_input_has_an_expected_output():
    assert PAIRS
    for name in PAIRS:
        assert (FIX / f"{name}.out.py").is_file(), name


@pytest.mark.parametrize("name", PAIRS)
def test_fix_write_gives_the_expected_file_byte_for_byte(tmp_path, name):
    src = copy_in(tmp_path, name)
    args = fix_args(src)
    proc = run_cli("fix", "--write", *args, src)
    assert proc.returncode == 0, proc.stderr
    assert src.read_bytes() == (FIX / f"{name}.out.py").read_bytes()
    assert "Applied" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", PAIRS)
def test_second_run_changes_nothing_and_rescan_is_clean(tmp_path, name):
    src = copy_in(tmp_path, name)
    args = fix_args(src)
    before = scan(src)
    assert run_cli("fix", "--write", *args, src).returncode == 0
    after_first = src.read_bytes()
    again = run_cli("fix", "--write", *args, src)
    assert again.returncode == 0 and src.read_bytes() == after_first
    assert "Nothing to fix" in again.stderr
    check = run_cli("fix", *args, src)
    assert check.returncode == 0 and check.stdout == ""
    unsafe = "--unsafe" in args
    after = scan(src)
    eligible = [f for f in after if f["fixable"] and (unsafe or f["confidence"] == "high")]
    assert eligible == [], eligible
    # every finding fix rewrote is gone; the rest are still reported
    fixed = {(f["rule"], f["line"]) for f in before if f["fixable"] and (unsafe or f["confidence"] == "high")}
    assert fixed and not {(f["rule"], f["line"]) for f in after} & fixed


def test_diff_mode_changes_nothing_and_the_diff_applies(tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(REPO / "examples" / "demo", demo)
    before = {p.name: p.read_bytes() for p in demo.rglob("*") if p.is_file()}
    proc = run_cli("fix", demo)
    assert proc.returncode == 1  # something to fix, nothing applied
    assert {p.name: p.read_bytes() for p in demo.rglob("*") if p.is_file()} == before
    assert "--- a/train.py\n+++ b/train.py\n" in proc.stdout
    assert '-    "model = TinyUNet().to(\\"cuda\\")\\n",\n' in proc.stdout  # the notebook cell, as JSON
    assert '+    "model = TinyUNet().to(\\"neuron\\")\\n",\n' in proc.stdout
    assert '-DEVICE = "cuda" if torch.cuda.is_available() else "cpu"\n' in proc.stdout
    # the device choice changes as a whole: "neuron" behind torch.cuda.is_available() would still pick the CPU
    assert ('+DEVICE = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"\n'
            in proc.stdout)
    assert '+        with torch.autocast(device_type="neuron"):\n' in proc.stdout
    assert "model = TinyUNet().cuda()" not in [l[1:] for l in proc.stdout.splitlines() if l[:1] in "+-"]
    assert "Would apply 7 fixes in 2 files" in proc.stderr
    assert "1 more fixable with --unsafe" in proc.stderr
    # the printed diff is a valid patch and gives the same result as --write
    patched = tmp_path / "patched"
    shutil.copytree(demo, patched)
    subprocess.run(["patch", "-p1", "-s", "-d", str(patched)], input=proc.stdout, text=True, check=True)
    assert run_cli("fix", "--write", demo).returncode == 0
    for p in [*demo.glob("*.py"), *demo.glob("*.ipynb")]:
        assert (patched / p.name).read_bytes() == p.read_bytes()


def test_select_and_ignore_limit_the_rewrites(tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(REPO / "examples" / "demo", demo)
    proc = run_cli("fix", "--select", "TRN242", demo / "train.py")
    changed = [l for l in proc.stdout.splitlines() if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    assert changed == ['-DEVICE = "cuda" if torch.cuda.is_available() else "cpu"',  # TRN243 is not selected, and
                       # still the condition changes with the string: alone, the string would never be chosen
                       '+DEVICE = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() '
                       'else "cpu"']
    proc = run_cli("fix", "--ignore", "cuda-device,TRN25,TRN271", demo)
    assert '+    model = torch.compile(model, backend="neuron"' in proc.stdout
    assert "DEVICE" not in proc.stdout and "autocast" not in proc.stdout


def test_files_that_do_not_parse_are_never_touched(tmp_path):
    # bad.py is Python 2: the scan reads it line for line, but `fix` never rewrites it (the result would not parse)
    bad = tmp_path / "bad.py"
    body = b'x = y.to("cuda")\nprint "python 2"\n'
    bad.write_bytes(body)
    good = tmp_path / "good.py"
    good.write_text('x = y.to("cuda")\n')
    proc = run_cli("fix", "--write", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert bad.read_bytes() == body
    assert good.read_text() == 'x = y.to("neuron")\n'
    proc = run_cli("fix", "--write", bad)  # named explicitly: still untouched
    assert proc.returncode == 0 and bad.read_bytes() == body


def test_file_changed_on_disk_after_reading_is_skipped(tmp_path):
    from trnready.fix import plan, write_fix

    src = tmp_path / "m.py"
    src.write_text('import torch\nx = torch.zeros(2, device="cuda")\n')
    p = plan([src])
    [ff] = p.changed

    def someone_edits(path):
        path.write_text('import torch\nx = torch.zeros(2, device="cuda")  # edited meanwhile\n')

    msg = write_fix(ff, before_replace=someone_edits)
    assert "changed on disk" in msg
    assert src.read_text().endswith("# edited meanwhile\n")
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]  # no temporary file left behind
    [ff] = plan([src]).changed  # planning again picks up the new content
    assert write_fix(ff) == "" and 'device="neuron")  # edited meanwhile' in src.read_text()


def test_encoding_bom_line_endings_and_mode_are_kept(tmp_path):
    src = tmp_path / "w.py"
    body = '\ufeff# -*- coding: utf-8 -*-\r\nimport torch\r\nname = "é"\r\nx = torch.ones(1, device="cuda")\r\n'
    src.write_bytes(body.encode("utf-8"))
    src.chmod(0o751)
    assert run_cli("fix", "--write", src).returncode == 0
    assert src.read_bytes() == body.replace('"cuda"', '"neuron"').encode("utf-8")
    assert src.stat().st_mode & 0o777 == 0o751


def test_import_torch_is_added_once_and_aliases_are_reused(tmp_path):
    src = tmp_path / "a.py"
    src.write_text('import os\n\n\ndef f(x):\n    return x.to("cuda"), x.to("cuda:2")\n')
    assert run_cli("fix", "--write", "--device-style", "accelerator", src).returncode == 0
    assert src.read_text() == (
        'import os\nimport torch\n\n\ndef f(x):\n    return x.to(torch.accelerator.current_accelerator().type), '
        'x.to(f"{torch.accelerator.current_accelerator().type}:2")\n')
    src.write_text('import torch.nn as nn\nimport torch as T\nd = "cuda"\nm.to(d)\n')
    assert run_cli("fix", "--write", "--device-style", "accelerator", src).returncode == 0
    assert src.read_text() == ('import torch.nn as nn\nimport torch as T\n'
                               'd = T.accelerator.current_accelerator().type\nm.to(d)\n')


def test_medium_confidence_needs_unsafe(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("model = model.cuda()\n")
    proc = run_cli("fix", "--write", src)
    assert proc.returncode == 0 and src.read_text() == "model = model.cuda()\n"
    assert "Nothing to fix" in proc.stderr and "1 more fixable with --unsafe" in proc.stderr
    assert run_cli("fix", "--write", "--unsafe", src).returncode == 0
    assert src.read_text() == 'model = model.to("neuron")\n'


def test_scan_marks_fixable_findings(tmp_path):
    (tmp_path / "t.py").write_text(
        'import torch\nfrom torch.cuda.amp import GradScaler\nx = torch.ones(1).to("cuda")\ns = GradScaler()\n')
    proc = run_cli("scan", "--no-color", "--exit-zero", tmp_path)
    assert 'TRN242 [change] [*] "cuda" device string' in proc.stdout
    assert "TRN251 [change] torch.cuda.amp" in proc.stdout  # GradScaler: no documented rewrite
    assert "[*] 1 fixable with `trnready fix`" in proc.stdout
    findings = {f["rule"]: f for f in scan(tmp_path)}
    assert findings["TRN242"]["fixable"] is True and findings["TRN251"]["fixable"] is False


def test_explain_shows_the_rewrite():
    proc = run_cli("explain", "TRN241")
    assert "## Automatic fix (trnready fix)" in proc.stdout
    assert '.cuda(...) -> .to("neuron", ...)' in proc.stdout and "--unsafe" in proc.stdout
    assert "Automatic fix" not in run_cli("explain", "TRN191").stdout


@pytest.mark.parametrize("table,needle", [
    ('[[rule.rewrite]]\nreplace-strin = { from = "cuda", to = "neuron" }\n', "key 'rewrite.replace-strin'"),
    ('[[rule.rewrite]]\nreplace-string = { from = "cuda", into = "neuron" }\n', "key 'rewrite.replace-string.into'"),
    ('[[rule.rewrite]]\nreplace-string = { from = "cuda", expr = "torch.(" }\n', "not a valid Python expression"),
    ('[[rule.rewrite]]\nset-arg = { name = "backend", value = "neuron" }\nstyle = "gpu"\n', "key 'rewrite.style'"),
    ('[[rule.rewrite]]\nreplace-call = { from = "a.b", to = "c.d", add-args = ["x"] }\n', "name=expression"),
    ('[[rule.rewrite]]\nreplace-choice = { from = "cuda", expr = "x" }\n', "key 'rewrite.replace-choice.calls'"),
    ('[[rule.rewrite]]\nreplace-choice = { from = "cuda", expr = "x", calls = { "a.b" = "c d" } }\n', "dotted"),
    ('[[rule.rewrite]]\nset-arg = { name = "backend", value = "neuron" }\nunless-chosen-by = ["torch.cuda"]\n',
     "replace-string only"),
    ('[[rule.rewrite]]\nset-arg = { name = "backend", value = "neuron" }\nunless-argument-of = ["*_device"]\n',
     "replace-string and replace-choice only"),
    ('[[rule.rewrite]]\nreplace-string = { from = "cuda", to = "neuron" }\nunless-argument-of = "x"\n',
     "callee name globs"),
])
def test_bad_rewrite_tables_are_one_clear_error(tmp_path, table, needle):
    src = (REPO / "blockers.toml").read_text()
    anchor = '[[rule]]\nid = "TRN252"'
    cat = tmp_path / "c.toml"
    cat.write_text(src.replace(anchor, table + "\n" + anchor, 1))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "entry TRN251" in proc.stderr and needle in proc.stderr, proc.stderr


def test_only_change_entries_may_declare_rewrites(tmp_path):
    src = (REPO / "blockers.toml").read_text()
    anchor = '[[rule]]\nid = "TRN102"'
    cat = tmp_path / "c.toml"
    cat.write_text(src.replace(anchor, '[[rule.rewrite]]\ndrop-arg = { name = "dynamic" }\n\n' + anchor, 1))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "entry TRN101" in proc.stderr and "severity `change`" in proc.stderr


def test_write_failures_exit_1_and_leave_the_file(tmp_path):
    src = tmp_path / "r.py"
    src.write_text('x = y.to("cuda")\n')
    src.chmod(0o444)
    try:
        proc = run_cli("fix", "--write", src)
        assert proc.returncode == 1 and "read-only" in proc.stderr
        assert src.read_text() == 'x = y.to("cuda")\n'
    finally:
        src.chmod(0o644)


def test_symlinked_file_is_reported_not_edited(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "m.py").write_text('x = y.to("cuda")\n')
    link = tmp_path / "link.py"
    link.symlink_to(real / "m.py")
    proc = run_cli("fix", "--write", link)
    assert proc.returncode == 1 and "link.py: not fixed: a symbolic link" in proc.stderr, proc.stderr
    assert link.is_symlink() and (real / "m.py").read_text() == 'x = y.to("cuda")\n'


def _rewritable_examples():
    from trnready.catalogue import load_catalogue

    for rule in load_catalogue().rules:
        if not rule.rewrites:
            continue
        for i, ex in enumerate(rule.hits):
            if not ex.file.endswith(".py"):
                continue  # config / manifest examples of the same rule: `fix` edits Python only
            for style in ("neuron", "accelerator"):
                yield pytest.param(rule.id, ex.code, style, id=f"{rule.id}-hit-{i}-{style}")


@pytest.mark.parametrize("rule_id,code,style", list(_rewritable_examples()))
def test_catalogue_hit_examples_are_rewritten_cleanly(tmp_path, rule_id, code, style):
    """Every hit example of an entry with a rewrite: fix gives code that parses, no longer has that
    finding where it rewrote, and a second fix changes nothing (in-process, both device styles)."""
    from trnready.api import scan
    from trnready.config import Config
    from trnready.fix import plan, write_fix

    src = tmp_path / "example.py"
    src.write_text(code + "\n", encoding="utf-8")
    cfg = Config(select=(rule_id,))
    # fix also rewrites guarded code (a rewritten CUDA check makes its body run on Neuron)
    before = sum(1 for f in scan([src], replace(cfg, show_guarded=True)).findings if not f.suppressed)
    p = plan([src], cfg, style=style, unsafe=True)
    rewritten = [f for ff in p.files for f in ff.applied]
    for ff in p.changed:
        assert write_fix(ff) == ""
    result = src.read_text(encoding="utf-8")
    compile(result, "example.py", "exec")
    assert len(scan([src], cfg).active) == before - len(rewritten)
    assert all(not ff.changed for ff in plan([src], cfg, style=style, unsafe=True).files)


def _notebook(cells):
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nb = {"cells": [{"cell_type": t, "execution_count": None, "metadata": {}, "outputs": [], "source": src}
                    if t == "code" else {"cell_type": t, "metadata": {}, "source": src} for t, src in cells],
          "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
    return nb, json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_notebook_cells_are_rewritten_and_magics_kept(tmp_path):
    """Notebook findings (cell + cell-relative lines, as the notebook reader reports them) are
    rewritten inside their cells; magics, shell escapes and the JSON layout are kept."""
    from trnready.api import build_engine
    from trnready.config import Config
    from trnready.fix import write_fix
    from trnready.fix.notebook import fix_notebook as _fix_notebook, mask_cell
    from trnready.readers.python import scan_python

    nb, text = _notebook([
        ("markdown", ["# Train\n", 'x.to("cuda")  # prose, not code']),
        ("code", ["!pip install torch\n", "import torch\n", "%matplotlib inline\n",
                  'x = torch.ones(2, device="cuda")  # gpu\n', "if True:\n", "    !nvidia-smi\n",
                  "y = x.to('cuda:0')"]),
        ("code", "%%bash\necho cuda\n"),
        ("code", ["%%time\n", "from torch.cuda.amp import autocast\n", "with autocast():\n", "    pass"]),
    ])
    path = tmp_path / "train.ipynb"
    path.write_text(text, encoding="utf-8")
    engine = build_engine(Config())
    findings = []
    for i, cell in enumerate(nb["cells"]):
        masked = mask_cell("".join(cell["source"])) if cell["cell_type"] == "code" else None
        if masked is not None:  # what the notebook reader does: scan each Python cell on its own
            found, diag, _ = scan_python(masked[0], "train.ipynb", engine, cell=i)
            assert diag is None
            findings += [f for f in found if f.fixable]
    assert sorted((f.cell, f.line, f.rule) for f in findings) == [
        (1, 4, "TRN242"), (1, 7, "TRN242"), (3, 3, "TRN251")]
    ff = _fix_notebook(path, "train.ipynb", findings, engine, Config(), "neuron")
    assert not ff.error and len(ff.applied) == 3, ff.left
    assert ff.diff().startswith("--- a/train.ipynb\n")
    assert write_fix(ff) == ""
    out = path.read_text(encoding="utf-8")
    nb["cells"][1]["source"] = ["!pip install torch\n", "import torch\n", "%matplotlib inline\n",
                                'x = torch.ones(2, device="neuron")  # gpu\n', "if True:\n", "    !nvidia-smi\n",
                                "y = x.to('neuron:0')"]
    nb["cells"][3]["source"] = ["%%time\n", "from torch.cuda.amp import autocast\n",
                                'with torch.autocast(device_type="neuron"):\n', "    pass"]  # torch: imported in cell 1
    assert out == json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_notebook_with_an_unknown_layout_is_not_rewritten(tmp_path):
    from trnready.api import build_engine
    from trnready.config import Config
    from trnready.fix.notebook import fix_notebook as _fix_notebook
    from trnready.readers.python import scan_python

    nb, _ = _notebook([("code", ['x = t.to("cuda")'])])
    text = json.dumps(nb, indent=3)  # not a layout json.dumps settings reproduce with a known tail
    text = text.replace('"cells": [', '"cells":   [')
    path = tmp_path / "odd.ipynb"
    path.write_text(text)
    engine = build_engine(Config())
    found, _, _ = scan_python('x = t.to("cuda")', "odd.ipynb", engine, cell=0)
    ff = _fix_notebook(path, "odd.ipynb", found, engine, Config(), "neuron")
    assert "layout" in ff.error and not ff.changed


def test_notebook_fixture_pair_through_the_cli(tmp_path):
    """notebook.in.ipynb -> notebook.out.ipynb with the real CLI."""
    src = tmp_path / "notebook.ipynb"
    shutil.copyfile(FIX / "notebook.in.ipynb", src)
    proc = run_cli("scan", "--format", "json", "--exit-zero", tmp_path)
    assert json.loads(proc.stdout)["summary"]["files_by_kind"]["notebook"] == 1
    proc = run_cli("fix", "--write", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert src.read_bytes() == (FIX / "notebook.out.ipynb").read_bytes()
    again = run_cli("fix", tmp_path)
    assert again.returncode == 0 and again.stdout == ""


def test_the_same_line_in_two_notebook_cells_is_fixed_in_both(tmp_path):
    """The scan numbers repeats of identical code across a notebook's cells (two fingerprints); the fix, which
    reads one cell at a time, still pairs the copy in the second cell with its finding."""
    _, text = _notebook([("code", ["import torch\n", 'x = torch.zeros(2, device="cuda")\n']),
                         ("code", ["import torch\n", 'x = torch.zeros(2, device="cuda")\n'])])
    (tmp_path / "nb.ipynb").write_text(text, encoding="utf-8")
    proc = run_cli("fix", tmp_path)
    assert proc.returncode == 1 and proc.stdout.count('+    "x = torch.zeros(2, device=\\"neuron\\")\\n"') == 2, \
        proc.stdout
    assert "Would apply 2 fixes in 1 file" in proc.stderr


def test_fix_honours_the_config_file(tmp_path):
    (tmp_path / "trnready.toml").write_text('ignore = ["cuda-device"]\n')
    (tmp_path / "m.py").write_text('import torch\nx = torch.zeros(2, device="cuda")\n')
    proc = run_cli("fix", tmp_path)
    assert proc.returncode == 0 and proc.stdout == ""
    proc = run_cli("fix", tmp_path, "--no-config")
    assert proc.returncode == 1 and '+x = torch.zeros(2, device="neuron")' in proc.stdout


def test_parent_finder_agrees_with_a_full_parent_map():
    import ast

    from trnready.rewrite import ParentFinder

    src = (REPO / "trnready" / "index.py").read_text() + "\nwith open(a) as f, g(b) as h:\n    x = [y for y in z]\n"
    tree = ast.parse(src)
    full = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    finder = ParentFinder(tree)
    for child, parent in full.items():
        assert finder.get(child) is parent


@pytest.mark.parametrize("glob", ["*device*", "set_*", "*.to"])
def test_a_device_position_glob_of_another_shape_is_one_clear_error(tmp_path, glob):
    # `[device] positions` take `*` followed by the end of a callee's last name (`"*_device" = 0`); any other glob
    # would never match, so the catalogue says so instead of matching nothing
    src = (REPO / "blockers.toml").read_text()
    cat = tmp_path / "c.toml"
    cat.write_text(src.replace('"*_device" = 0 }', f'"*_device" = 0, "{glob}" = 0 }}', 1))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "device.positions" in proc.stderr and "followed by the end of a callee name" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
