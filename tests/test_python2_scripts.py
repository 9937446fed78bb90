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
    assert found == [("train", 14, 5, "TRN241"), ("train", 16, 13, "TRN351"), ("train", 21, 9, "TRN241"),
                     ("train", 22, 22, "TRN323")]


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
