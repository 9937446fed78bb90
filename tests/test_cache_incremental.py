"""After an edit, a warm scan (its project steps answered partly from facts the cache keeps per file: words, lookups,
the callers tables) reports exactly what a cold scan without the cache reports: the edits below each change a
verdict some project step took from the other files."""
import json
import shutil

from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "incremental"


def _report(tree, cache=None):
    args = ["scan", tree, "--format", "json", "--show-guarded"]
    env = {"TRNREADY_CACHE_DIR": str(cache)} if cache is not None else None
    proc = run_cli(*args, *([] if cache is not None else ["--no-cache"]), env=env)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    report.pop("generated_at", None)
    return report


def _verdicts(report):
    return {(f["path"], f["line"], f["rule"], f.get("guarded_by")) for f in report["findings"]}


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_warm_scan_after_each_edit_equals_a_cold_one(tmp_path):
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    shutil.copytree(ROOT, tree)
    first = _report(tree, cache)
    assert first == _report(tree)
    got = _verdicts(first)
    # the project steps had something to say: a mask every caller passes as None, a function and a module no file
    # names
    assert ("pkg/layers.py", 11, "TRN172", "callers-pass-none") in got
    assert ("pkg/layers.py", 19, "TRN191", "never-referenced") in got
    assert ("pkg/extra.py", 5, "TRN191", "never-imported") in got
    edits = [
        # a comment: no summary changes
        (tree / "pkg/model.py", "        return upscale",
         "        # the block, then twice the size\n        return upscale"),
        # another file names the spare function: it is referenced now
        (tree / "train.py", "from pkg.model import Model\n", "from pkg.model import Model\nfrom pkg.layers import "
                                                            "spare_upscale\n"),
        # a caller passes a mask: the callers no longer all pass None
        (tree / "pkg/model.py", "mask=None", "mask=x.new_ones(1, 1).bool()"),
        # every line of the file moves down
        (tree / "pkg/layers.py", "import torch.nn as nn\n", '"""Layers."""\nimport torch.nn as nn\n'),
        # the module nothing imported is imported
        (tree / "train.py", "import torch\n", "import torch\nimport pkg.extra\n"),
    ]
    seen = {frozenset(got)}
    for path, old, new in edits:
        _edit(path, old, new)
        warm = _report(tree, cache)
        assert warm == _report(tree), (path, old)
        seen.add(frozenset(_verdicts(warm)))
    assert len(seen) == len(edits)  # every edit but the comment changed a verdict or a place


def test_the_callers_step_answers_from_its_last_verdicts_only_when_an_edit_left_their_reads(tmp_path):
    """The callers step keeps its verdicts with what they read (cache.LastAnswer, callers.Reads): an edit of a file
    it never read deep is checked against its share of each count and its summary, and only then answered from
    the last verdicts. Each edit below is checked warm against cold."""
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    shutil.copytree(ROOT, tree)
    first = _report(tree, cache)
    assert ("pkg/layers.py", 11, "TRN172", "callers-pass-none") in _verdicts(first)
    edits = [
        # a file the step read nothing of: a comment, then a CUDA call (its findings change, no verdict's reads)
        (tree / "pkg/extra.py", "def shrink(x):\n", "def shrink(x):\n    # half the size\n"),
        (tree / "pkg/extra.py", "    return F.interpolate(x, scale",
         "    x = x.cuda()\n    return F.interpolate(x, scale"),
        # the same file now constructs the class elsewhere: its share of the class's mentions changes
        (tree / "pkg/extra.py", "import torch.nn.functional as F\n",
         "import torch.nn.functional as F\n\nfrom .layers import Block\n\nspare = Block(4)\n"),
        # and drops it again
        (tree / "pkg/extra.py", "spare = Block(4)\n", "\n"),
        # the only call of the model goes (a summary the step read changes)
        (tree / "train.py", "out = model(torch.zeros(2, 4, 8).cuda())\n", ""),
        # the import the caller's call resolves through is gone
        (tree / "pkg/model.py", "from .layers import Block, upscale\n",
         "from .layers import upscale\nfrom . import layers\n"),
    ]
    seen = []
    for path, old, new in edits:
        _edit(path, old, new)
        warm = _report(tree, cache)
        assert warm == _report(tree), (path, old)
        seen.append(("pkg/layers.py", 11, "TRN172", "callers-pass-none") in _verdicts(warm))
    assert seen == [True, True, False, True, True, False]
