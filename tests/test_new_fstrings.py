"""Code written for Python 3.12+ reuses the outer quote, a backslash or a line break inside an f-string's braces
(PEP 701). A parser older than 3.12 rejects such a file outright; the Python reader reads it with those f-strings
rewritten for the running parser, column for column (readers/fstrings.py), so its device code is still scanned
(cf-dense-contrastive-learning's `pretraining/main.py`: `f'{cfg['train']['exp_name']}'` above its
`torch.cuda.set_device(0)` and `backend='nccl'`)."""
import ast
import json
import sys

import pytest

from conftest import run_cli
from trnready.readers.fstrings import backport

MAIN = '''import torch
import torch.backends.cudnn as cudnn


def main(cfg, local_rank):
    print(f'run {cfg['train']['exp_name']} on rank {local_rank}')
    torch.cuda.set_device(local_rank)
    torch.distributed.init_process_group(backend='nccl', init_method='env://')
    cudnn.benchmark = True
    lines = f"{"\\n".join(str(k) for k in cfg)}"
    device = f'cuda:{local_rank}'
    print(f"""{cfg["device"]} {lines}""", f"{device:>{len(device)}} {cfg["train"]!r:>10}")
    return torch.zeros(3, device=device)
'''


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_file_with_python_312_fstrings_is_scanned_with_its_places(tmp_path):
    (tmp_path / "main.py").write_text(MAIN)
    got = _scan(tmp_path)
    assert got["diagnostics"] == []
    found = [(f["line"], f["column"], f["rule"], f["message"]) for f in got["findings"]]
    assert found == [
        (7, 5, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`"),
        (8, 5, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group`"),
        (9, 5, "TRN261", "cuDNN / CUDA backend flag: `torch.backends.cudnn.benchmark`"),
        (11, 14, "TRN242", '"cuda" device string: `cuda:*`'),
    ]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running parser reads PEP 701 f-strings itself")
def test_a_file_broken_otherwise_keeps_its_diagnostic(tmp_path):
    (tmp_path / "bad.py").write_text("import torch\nx = f'{a['b']}'\ny = IsolationForest(random_state=).fit(x)\n")
    (tmp_path / "ok.py").write_text("import torch\n")
    got = _scan(tmp_path)
    assert [d["kind"] for d in got["diagnostics"]] == ["syntax-error"]
    assert "newer than Python" in got["diagnostics"][0]["message"]


@pytest.mark.parametrize("source, expected", [
    # the inner string takes the other quote: the expression is kept
    ('x = f"{row["name"]}"\n', "x = f\"{row['name']}\"\n"),
    ('x = f"{a:>{w}} {d["q"]!r:>10}"\n', "x = f\"{a:>{w}} {d['q']!r:>10}\"\n"),
    ('print(f"{len(m["a"])=}")\n', "print(f\"{len(m['a'])=}\")\n"),
    # a backslash, a nested f-string in the same quote, or a quote of each kind: blanked, same extent
    ('x = f"{"\\n".join(xs)}"\n', 'x = "                "\n'),
    ('x = f"{f"{y}"}"\n', 'x = "         "\n'),
    ('x = f"{d["it\'s"]}"\n', 'x = "            "\n'),
    # a one-quote string inside a three-quote f-string was always allowed: nothing to do
    ('x = f"""{a["b"]}"""\n', None),
    ("x = f'{a}' + f\"{b['k']}\"\n", None),
    ("# f'{a['b']}' in a comment\nx = 'f{'\n", None),
])
def test_backport_keeps_every_other_character_in_place(source, expected):
    got = backport(source)
    assert got == expected
    if got is not None:
        assert len(got) == len(source)
        ast.parse(got)


def test_backport_leaves_what_it_cannot_follow():
    assert backport("x = f'{a['b']}\n") is None  # unterminated
    assert backport("x = 'abc\n") is None
