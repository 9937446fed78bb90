"""A notebook cell with a syntax error is scanned up to the statement holding it (trnready/readers/notebook.py)."""
import json

from conftest import run_cli


def _notebook(path, cells):
    path.write_text(json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                   "source": src.splitlines(keepends=True)} for src in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


SETUP = (
    "!pip install -q wandb\n"
    "import numpy as np\n"
    "import torch\n"
    "\n"
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
    "\n"
    "if USE_WANDB:\n"
    "    try:\n"
    "        import wandb\n"
    "    wandb.login()\n")
PLOT = (
    "x = torch.ones(2).to(device)\n"
    "scores = np.array(scores)\n"
    "labels = np.array(labels)\n"
    "for cls in (0, 1):\n"
    "    picked = labels == cls\n"
    "    print(scores[picked].mean())\n")


def test_a_setup_cell_broken_below_its_imports_still_binds_them_for_later_cells(tmp_path):
    # TIDAL (fresh82): the setup cell imports NumPy and picks the device, then leaves a `try:` without its handler.
    # The statements above the broken `if` are scanned: the device pick (line 5) is reported, and NumPy's `np`
    # is known to the later cell, whose mask selection of a NumPy array is host code (no TRN104)
    _notebook(tmp_path / "run.ipynb", [SETUP, PLOT])
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    report = json.loads(proc.stdout)
    got = [(f["cell"], f["line"], f["column"], f["rule"]) for f in report["findings"]]
    assert got == [(0, 5, 10, "TRN242")]
    assert [(d["kind"], d["message"]) for d in report["diagnostics"]] == [
        ("cell-syntax-error", "1 code cell scanned only before a syntax error (cell 0: line 10: expected 'except' or "
         "'finally' block (if the file uses syntax newer than Python 3.11, run trnready under a newer Python); lines "
         "1-6 scanned); the other cells were scanned")]


def test_a_cell_broken_on_its_first_statement_is_not_scanned(tmp_path):
    # nothing parses above the error: the cell is skipped as before, the other cells are scanned
    _notebook(tmp_path / "run.ipynb", ["def broken(:\n    x = torch.ones(2).cuda()\n",
                                       "import torch\ny = torch.ones(2).cuda()\n"])
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    report = json.loads(proc.stdout)
    assert [(f["cell"], f["line"], f["rule"]) for f in report["findings"]] == [(1, 2, "TRN241")]
    assert report["diagnostics"][0]["message"].startswith("1 code cell not scanned as Python (cell 0: line 1")
