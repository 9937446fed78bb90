"""Old research repositories ship Python 2 programs without a suffix (`train`, `test` with a `#!/usr/bin/env python`
line): discovery takes a suffix-less file with a Python shebang as Python (discover.python_script), and the Python
reader reads a Python 2 file with its print statements as calls and `except X, e:` as `except X as e:`, line for
line, so that its device code is scanned (readers/python.py)."""
import json

from conftest import run_cli

TRAIN = """#!/usr/bin/env python

import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument('--cuda', action='store_true')
opt = parser.parse_args()
print opt

model = torch.nn.Linear(3, 3)
if opt.cuda:
    model.cuda()
try:
    state = torch.load('checkpoints/model.pth')
except IOError, e:
    print "no checkpoint:", e
    state = None
for epoch in range(3):
    x = torch.randn(4, 3).cuda()
    y = x.cuda(async=True)
    print
    print 'epoch', epoch, model(x).sum() ; print('done')
"""


def _scan(root, *args):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_python2_script_without_a_suffix_is_scanned_line_for_line(tmp_path):
    (tmp_path / "train").write_text(TRAIN)
    got = _scan(tmp_path)
    assert got["diagnostics"] == []
    found = [(f["path"], f["line"], f["column"], f["rule"]) for f in got["findings"]]
    # the lines keep their numbers, and the code after `print ` its columns
    # PyTorch 0.3's `async=True` beside the print statements: read with the 3.6 grammar as well (places365)
    assert found == [("train", 10, 1, "TRN324"), ("train", 14, 5, "TRN241"), ("train", 16, 13, "TRN351"),
                     ("train", 21, 9, "TRN241"), ("train", 22, 22, "TRN323")]


def test_other_suffixless_files_and_other_breakage_are_left_as_they_were(tmp_path):
    # no shebang, or a shell one: not Python; backticks are not rewritten, so the file stays a syntax error
    (tmp_path / "ok.py").write_text("import torch\n")
    (tmp_path / "LICENSE").write_text("print this license\n")
    (tmp_path / "run").write_text("#!/bin/bash\npython train.py --cuda\n")
    (tmp_path / "eval").write_text("#!/usr/bin/python2.7\nimport sys\nimport torch\n"
                                   "print `torch.zeros(1).cuda()`\n")
    got = _scan(tmp_path)
    assert [(d["path"], d["kind"]) for d in got["diagnostics"]] == [("eval", "syntax-error")]
    assert "looks like Python 2" in got["diagnostics"][0]["message"]
    assert (got["summary"]["files_scanned"], got["summary"]["files_skipped"]) == (1, 1)  # ok.py read, eval not


def _python2(got):
    return [(f["path"], f["line"], f["column"], f["message"], [(o["line"], o["column"]) for o in f.get("occurrences") or ()])
            for f in got["findings"] if f["rule"] == "TRN324"]


def test_a_python2_module_is_one_finding_at_its_first_python2_line(tmp_path):
    # the first statement the reader rewrote, or the first removed builtin or dict method, whichever comes first;
    # the others are places of the same finding (one module to port)
    (tmp_path / "train").write_text(TRAIN)
    (tmp_path / "roidb.py").write_text(
        "import numpy as np\n"
        "def prepare(roidb, cfg):\n"
        "    for i in xrange(len(roidb)):\n"
        "        roidb[i]['max'] = np.zeros(3)\n"
        "    for k, v in cfg.iteritems():\n"
        "        if roidb[0].has_key(k):\n"
        "            print 'key', k\n")
    got = _scan(tmp_path)
    assert _python2(got) == [
        ("roidb.py", 3, 14, "Python 2 module (a name Python 3 removed): `builtins.xrange`", [(5, 17), (6, 12), (7, 13)]),
        # every rewritten statement (the later print statements) is a place of the module's finding
        ("train", 10, 1, "Python 2 module (a syntax error on Python 3): `print statement`",
         [(17, 1), (18, 5), (23, 5), (24, 5)]),
    ]


def test_python3_code_and_names_the_module_binds_are_not_python2(tmp_path):
    # a bound or imported `xrange`, a star import that may bring it, `print(...)` calls and `except ... as`
    (tmp_path / "a.py").write_text("from six.moves import xrange\nimport torch\nx = [i for i in xrange(3)]\n")
    (tmp_path / "b.py").write_text("import torch\ndef xrange(n):\n    return range(n)\ny = list(xrange(2))\n")
    (tmp_path / "c.py").write_text("from past.builtins import *\nimport torch\nz = list(xrange(2))\n")
    (tmp_path / "d.py").write_text("import torch\ntry:\n    print('x', torch.zeros(1))\n"
                                   "except (IOError, OSError) as e:\n    print(e)\n")
    assert _python2(_scan(tmp_path)) == []


def test_a_file_with_only_a_python2_statement_passes_the_prefilter(tmp_path):
    # nothing else in it names a catalogue token: the prefilter's own look for Python 2 statements lets it in
    (tmp_path / "util.py").write_text("def show(x):\n    print 'value:', x\n")
    got = _scan(tmp_path)
    assert _python2(got) == [("util.py", 2, 5, "Python 2 module (a syntax error on Python 3): `print statement`", [])]


def test_an_iterators_next_method_is_python2_another_objects_is_not(tmp_path):
    # crnn.pytorch's `val_iter = iter(val_loader)` then `val_iter.next()`; a pager's own `.next()` and `next(it)` stay
    (tmp_path / "train.py").write_text(
        "import torch\n\n\ndef val(net, loader, pager):\n    val_iter = iter(loader)\n    page = pager.next()\n"
        "    images, texts = val_iter.next()\n    return net(images), page, next(iter(loader))\n")
    assert _python2(_scan(tmp_path)) == [
        ("train.py", 7, 21, "Python 2 module (an iterator's `.next()`, `next(it)` on Python 3): `.next()`", [])]
