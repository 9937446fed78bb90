"""Suppression comments in every file kind that has comments, with that kind's syntax (real CLI, real files).

Each case writes one file holding a finding suppressed with a reason, a reason-less suppression (TRN901)
and a suppression that suppresses nothing (TRN902), and pins line, column, rule and suppressed state.
"""
import json

import pytest

from conftest import run_cli

NOTEBOOK = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
     "source": ["!pip install flash-attn  # trnready: ignore[TRN501] CPU fallback in the notebook\n",
                "import os\n",
                "os.environ['CUDA_VISIBLE_DEVICES'] = '0'  # trnready: ignore[TRN191] wrong id\n"]},
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
     "source": "%%bash\nexport CUDA_VISIBLE_DEVICES=0  # trnready: ignore[TRN605]\n"},
]}, indent=1)

CASES = {
    "requirements": ("requirements.txt",
                     "numpy\n"
                     "flash-attn==2.5.0  # trnready: ignore[TRN501] CPU fallback\n"
                     "xformers # trnready: ignore[TRN601]\n",
                     [(2, 1, "TRN501", True), (3, 1, "TRN501", False), (3, 10, "TRN901", False),
                      (3, 10, "TRN902", False)]),
    "dockerfile": ("Dockerfile",
                   "FROM nvidia/cuda:12.1.0-runtime-ubuntu22.04  # trnready: ignore[TRN603] swapped in CI\n"
                   "RUN pip install flash-attn  # trnready: ignore[TRN501]\n"
                   "# trnready: ignore[TRN605] a comment on its own line covers only itself\n"
                   "ENV CUDA_VISIBLE_DEVICES=0\n",
                   [(1, 1, "TRN603", True), (2, 17, "TRN501", True), (2, 29, "TRN901", False),
                    (3, 1, "TRN902", False), (4, 5, "TRN605", False)]),
    "apptainer": ("train.def",
                  "Bootstrap: docker\n"
                  "From: nvidia/cuda:12.1.0-runtime-ubuntu22.04  # trnready: ignore[TRN603] swapped in CI\n"
                  "%post\n"
                  "    pip install flash-attn  # trnready: ignore[TRN605]\n",
                  [(2, 1, "TRN603", True), (4, 17, "TRN501", False), (4, 29, "TRN901", False),
                   (4, 29, "TRN902", False)]),
    "shell": ("run.sh",
              "#!/bin/bash\n"
              "export CUDA_VISIBLE_DEVICES=0,1  # trnready: ignore[TRN9999] typo\n"
              "pip install xformers  # trnready: ignore[cuda-library] built from source on Neuron\n",
              [(2, 8, "TRN605", False), (2, 34, "TRN902", False), (3, 13, "TRN501", True)]),
    "yaml": ("job.yaml",
             "env:\n"
             "  CUDA_VISIBLE_DEVICES: \"0\"  # trnready: ignore[TRN605] the GPU lane of the matrix\n"
             "  OTHER: \"1\"  # trnready: ignore[TRN605] nothing here\n",
             [(2, 3, "TRN605", True), (3, 15, "TRN902", False)]),
    "toml": ("pyproject.toml",
             "[project]\n"
             "name = \"x\"\n"
             "dependencies = [\n"
             "  \"flash-attn\",  # trnready: ignore[TRN501] optional extra\n"
             "  \"xformers\",  # trnready: ignore[TRN603] wrong id\n"
             "]\n",
             [(4, 4, "TRN501", True), (5, 4, "TRN501", False), (5, 16, "TRN902", False)]),
    "env": (".env",
            "CUDA_VISIBLE_DEVICES=0  # trnready: ignore[TRN605] local GPU runs only\n"
            "# trnready: ignore[TRN605]\n",
            [(1, 1, "TRN605", True), (2, 1, "TRN901", False), (2, 1, "TRN902", False)]),
    "cuda": ("kernels.cu",
             "/* trnready: ignore-file[TRN601] ported to NKI in kernels/nki.py */\n"
             "#include <cuda.h>\n"
             "__global__ void k(float *x) { x[0] = 1; }  // trnready: ignore[TRN605] nothing to suppress\n",
             [(1, 1, "TRN601", True), (3, 44, "TRN902", False)]),
    "cuda-block": ("ops.cuh",
                   "#pragma once\n"
                   # the file's finding sits at line 1; a directive on its kernel (one of its places) covers it
                   "__global__ void k(float *x) { x[0] = 1; }  /* trnready: ignore[TRN601] legacy path */\n",
                   [(1, 1, "TRN601", True)]),
    "notebook": ("train.ipynb", NOTEBOOK,
                 [(0, 1, 14, "TRN501", True), (0, 3, 12, "TRN245", False), (0, 3, 43, "TRN902", False),
                  (1, 2, 8, "TRN605", True), (1, 2, 32, "TRN901", False)]),
}


def scan_one(tmp_path, name, text, *args):
    (tmp_path / name).write_text(text)
    proc = run_cli("scan", "--format", "json", "--no-config", "--no-cache", tmp_path, *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", sorted(CASES))
def test_suppressions_in_every_kind(tmp_path, case):
    name, text, expected = CASES[case]
    data = scan_one(tmp_path, name, text)
    if case == "notebook":
        got = sorted((f["cell"], f["line"], f["column"], f["rule"], f["suppressed"]) for f in data["findings"])
    else:
        got = sorted((f["line"], f["column"], f["rule"], f["suppressed"]) for f in data["findings"])
    assert got == expected
    assert all(f["path"] == name for f in data["findings"])


def test_reason_is_reported_and_suppressed_findings_do_not_gate(tmp_path):
    data = scan_one(tmp_path, "requirements.txt", "flash-attn  # trnready: ignore[TRN501] - CPU fallback\n")
    (f,) = data["findings"]
    assert (f["rule"], f["suppressed"], f["suppression_reason"]) == ("TRN501", True, "CPU fallback")
    assert data["summary"]["verdict"] == "ready"


def test_audit_mode_ignores_suppressions_in_other_kinds(tmp_path):
    data = scan_one(tmp_path, "Dockerfile", "ENV CUDA_VISIBLE_DEVICES=0  # trnready: ignore[TRN605] reason\n",
                    "--no-suppressions")
    assert [(f["rule"], f["suppressed"]) for f in data["findings"]] == [("TRN605", False)]


def test_a_hash_inside_a_word_is_not_a_comment(tmp_path):
    # `#` only opens a comment at the start of a line or after whitespace, as in the shell.
    data = scan_one(tmp_path, "run.sh", "export CUDA_VISIBLE_DEVICES=0#trnready:ignore[TRN605]x\n")
    assert [(f["rule"], f["suppressed"]) for f in data["findings"]] == [("TRN605", False)]
