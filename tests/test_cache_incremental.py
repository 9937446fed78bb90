"""After an edit, a warm scan (its project steps answered partly from facts the cache keeps per file: words, lookups,
the callers tables) reports exactly what a cold scan without the cache reports: the edits below each change a
verdict some project step took from the other files."""
import json
import shutil

from conftest import CONTEXT_FIXTURES, FIXTURES, run_cli

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


def _edited_runs(tmp_path, fixture, edits, verdict):
    """verdict(report) of a warm scan after each edit (each first checked against a cold `--no-cache` scan)."""
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    shutil.copytree(fixture, tree)
    first = _report(tree, cache)
    assert first == _report(tree)
    out = [verdict(first)]
    for rel, old, new in edits:
        path = tree / rel
        if old is None:  # appended
            path.write_text(path.read_text() + new)
        elif old == "*":  # the whole text replaced
            path.write_text(new)
        else:
            _edit(path, old, new)
        warm = _report(tree, cache)
        assert warm == _report(tree), (rel, old, new)
        out.append(verdict(warm))
    return out


def _places_of(path, line, rule):
    def verdict(report):
        f = next(f for f in report["findings"] if (f["path"], f["line"], f["rule"]) == (path, line, rule))
        return [(e["path"], e["line"]) for e in f.get("elsewhere", ())]
    return verdict


def test_caller_places_after_an_edit_of_a_file_it_passed_over_or_read(tmp_path):
    """step_memo.TextReads: caller places keeps its last edits with the files it read deep and the tests the others
    failed (naming a helper; for an acting one, being able to call it)."""
    got = _edited_runs(tmp_path, FIXTURES / "acting_helpers", [
        # a file naming the resize helper in a comment only: it still cannot call it (answered from the last edits)
        ("model.py", None, "\n# scale the head's output\n"),
        # the same file imports and calls it: a new place
        ("model.py", "from torch import nn\n", "from torch import nn\n\nfrom pkg.imaging import scale\n\n\n"
                                               "def half(x):\n    return scale(x, 0.5)\n"),
        # the caller read deep stops calling it with a ratio
        ("train.py", 'small = scale(batch["img"], 0.5)', 'small = batch["img"]'),
    ], _places_of("pkg/imaging.py", 7, "TRN191"))
    assert got == [[("train.py", 12)], [("train.py", 12)], [("model.py", 8), ("train.py", 12)], [("model.py", 8)]]


def test_mask_places_after_an_edit_of_a_file_it_passed_over(tmp_path):
    got = _edited_runs(tmp_path, FIXTURES / "inherited_masks", [
        # names the base class but calls no method of it
        ("lm/__init__.py", "*", "# Attention layers of the model and its adapters\n"),
        # a subclass handing the base's attention a mask of its own
        ("lm/__init__.py", None, "from lm.model import Attention\n\n\nclass Windowed(Attention):\n"
                                 "    def forward(self, q, k, v, window):\n        return self.attend(q, k, v, window > 0)\n"),
    ], _places_of("lm/model.py", 7, "TRN171"))
    assert got[0] == got[1] == [("lm/adapter.py", 10), ("lm/adapter_v2.py", 12)]
    assert got[2] == [("lm/__init__.py", 7), *got[0]], got


def test_processor_masks_after_an_edit_that_does_or_does_not_hand_a_mask(tmp_path):
    def guarded(report):
        return [(f["line"], f.get("guarded_by", "")) for f in report["findings"] if f["path"] == "adapter/processors.py"
                and f["rule"] == "TRN171"]
    got = _edited_runs(tmp_path, CONTEXT_FIXTURES / "processor_masks" / "unset", [
        # the file calling the UNet, asked whether it hands a mask: a comment does not
        ("train.py", None, "# the processors get no mask\n"),
        # the UNet is given the padding mask
        ("train.py", "encoder_hidden_states=emb)", "encoder_hidden_states=emb, attention_mask=pad)"),
    ], guarded)
    unset = [(15, "processor-mask-unset"), (21, "processor-mask-unset"), (29, "never-referenced")]
    assert got == [unset, unset, [(15, ""), (21, "never-referenced"), (29, "never-referenced")]]


def test_a_step_reading_through_text_reads_answers_from_its_last_edits_only_while_they_hold(tmp_path):
    """In process: `remembered` decides again only when an edited file was read deep or now passes a test it
    failed; a file never asked about may change freely."""
    from dataclasses import replace

    from trnready.cache import ResultCache, content_hash
    from trnready.discover import SourceFile
    from trnready.model import Finding
    from trnready.project.step_memo import holding, remembered, text_test

    root = tmp_path / "p"
    root.mkdir()
    texts = {"a.py": "x = 1\n", "b.py": "y = 2\n", "c.py": "z = 3\n", "d.py": "w = 4\n"}
    files = [SourceFile(root / rel, rel, "python") for rel in texts]
    finding = Finding("TRN001", "c", "blocker", "high", "a.py", 1, 1, 1, 2, "x", "m", "", "", "", "fp")
    runs: list = []

    @text_test("test-odd")
    def _odd(text, word):  # a named test with an argument, asked again of an edited file
        return text.count(word) % 2 == 1

    def compute(fs, text_of):
        runs.append(1)
        text_of("a.py")  # read deep
        hits = [rel for rel in ("b.py", "c.py") if holding(text_of, rel, [("needle",), ("@test-odd", "pin")])]
        return [replace(fs[0], message=f"m {hits}")]

    def scan():
        for rel, text in texts.items():
            (root / rel).write_text(text)
        cache = ResultCache(tmp_path / "cache", "salt")
        digests = [content_hash(texts[sf.rel].encode()) for sf in files]
        cache.scanning(str(root), files, digests)
        out = remembered("test-step", [finding], files, cache, digests, compute, lambda sf: sf.path.read_text())
        cache.close()
        return out[0].message

    assert scan() == "m []" and len(runs) == 1
    texts["c.py"] += "# no word sought\n"  # asked, still fails every test
    texts["d.py"] += "needle pin\n"  # never asked
    assert scan() == "m []" and len(runs) == 1
    texts["c.py"] += "pin pin\n"  # the named test still fails (an even count)
    assert scan() == "m []" and len(runs) == 1
    texts["c.py"] += "# pin\n"  # now passes it
    assert scan() == "m ['c.py']" and len(runs) == 2
    texts["b.py"] += "needle = 0\n"
    assert scan() == "m ['b.py', 'c.py']" and len(runs) == 3
    texts["c.py"] += "# once more\n"  # read deep last time: decided again
    assert scan() == "m ['b.py', 'c.py']" and len(runs) == 4
    texts["a.py"] += "# read deep\n"
    assert scan() == "m ['b.py', 'c.py']" and len(runs) == 5
    texts["d.py"] += "# again\n"
    assert scan() == "m ['b.py', 'c.py']" and len(runs) == 5


def test_cuda_only_paths_after_an_edit_of_a_file_it_passed_over(tmp_path):
    """cuda-only-path reads through step_memo.TextReads: a file that tests no device, names no definition judged and
    defines none of the names a CUDA-only path reaches is passed over."""
    def guard(report):
        return [(f["line"], f.get("guarded_by", "")) for f in report["findings"]
                if f["path"] == "torch_utils/custom_ops.py" and f["rule"] == "TRN243"]
    got = _edited_runs(tmp_path, CONTEXT_FIXTURES / "cuda_fallback" / "with_reference", [
        ("torch_utils/__init__.py", None, "\n# plugins are built on first use\n"),
        # the device name read at import, off any CUDA-only path
        ("torch_utils/__init__.py", None, "\nfrom .custom_ops import _gpu_name\n\nNAME = _gpu_name()\n"),
    ], guard)
    assert got[0] == got[1] == [(9, "cuda-only-path")]
    assert got[2] == [(9, "")]


def test_gated_imports_from_the_cache_and_after_an_edit(tmp_path):
    """gated-imports is kept under the files' digests (step_memo.remembered): a warm re-scan answers from the cache,
    and an edit that imports the module unconditionally is judged again."""
    def gated(report):
        return sorted((f["path"], f.get("guarded_by", "")) for f in report["findings"]
                      if f["path"] in ("app/ops/fast_block.py", "app/kernels/fast_block_kernel.cu"))
    got = _edited_runs(tmp_path, FIXTURES / "gated_imports", [
        # a comment: the same answer
        ("app/search.py", None, "\n# fast_block runs only on CUDA machines\n"),
        # imported at the top too: no longer gated
        ("app/search.py", "import torch\n", "import torch\n\nfrom app.ops.fast_block import FastBlock as Eager\n"),
    ], gated)
    kept = [("app/kernels/fast_block_kernel.cu", "cuda-gated-import"), ("app/ops/fast_block.py", "cuda-gated-import")]
    assert got[0] == got[1] == kept
    assert all(reason == "" for _path, reason in got[2]) and got[2], got
