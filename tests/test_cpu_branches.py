"""readers/cpu_branches.py: a CUDA build of PyTorch installed in an arm of a shell `if` / `case` whose sibling arm
installs the CPU build is guarded (`cpu-wheel-branch`); torch-neuronx runs on the CPU build."""
from __future__ import annotations

import json

from conftest import run_cli, write

from trnready.readers.cpu_branches import blocks


def scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", "--show-guarded")
    assert proc.returncode == 0, proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by") or "", f["message"].split(": ", 1)[1])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN505"]


def test_cuda_arm_beside_a_cpu_arm_is_guarded_in_nested_if_blocks(tmp_path):
    write(tmp_path, "ci/install.sh", """
        if [[ "$TORCH_VERSION" == "nightly" ]]; then
          if [ "${CU_VERSION:-}" == cpu ] ; then
            pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cpu -U
          else
            pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu128 -U
          fi
        else
          pip3 install torch --index-url https://download.pytorch.org/whl/cu128
        fi
        """)
    assert scan(tmp_path) == [
        ("ci/install.sh", 5, 50, "TRN505", "cpu-wheel-branch", "`download.pytorch.org/whl/nightly/cu128`"),
        # the stable arm has no CPU leg: its sibling installs the CPU build only inside a nested choice
        ("ci/install.sh", 8, 42, "TRN505", "", "`download.pytorch.org/whl/cu128`"),
    ]


def test_one_line_if_and_case_arms(tmp_path):
    write(tmp_path, "install.sh", """
        if [ "$CU_VERSION" == cpu ]; then pip install torch --index-url https://download.pytorch.org/whl/cpu; else pip install torch --index-url https://download.pytorch.org/whl/cu128; fi
        case "$CU" in
          cpu) pip install torch==2.14.0+cpu -f https://download.pytorch.org/whl/torch_stable.html ;;
          cu*)
            pip install torch==2.14.0+cu128 -f https://download.pytorch.org/whl/torch_stable.html
            ;;
        esac
        """)
    assert scan(tmp_path) == [
        ("install.sh", 1, 146, "TRN505", "cpu-wheel-branch", "`download.pytorch.org/whl/cu128`"),
        ("install.sh", 5, 17, "TRN505", "cpu-wheel-branch", "`torch==2.14.0+cu128`"),
    ]


def test_ci_run_block(tmp_path):
    write(tmp_path, ".github/workflows/ci.yml", """
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  if [ "${{ matrix.device }}" == cpu ]; then
                    pip install torch --index-url https://download.pytorch.org/whl/cpu
                  else
                    pip install torch --index-url https://download.pytorch.org/whl/cu121
                  fi
                  pytest
        """)
    assert scan(tmp_path) == [
        (".github/workflows/ci.yml", 9, 51, "TRN505", "cpu-wheel-branch", "`download.pytorch.org/whl/cu121`"),
    ]


def test_no_cpu_sibling_or_no_install_stays_reported(tmp_path):
    # an arm with no CPU sibling; arms that only choose a variable for a GPU image the project builds and ships
    write(tmp_path, "scripts/gpu.sh", """
        if [ -n "$GPU" ]; then
          pip install torch --index-url https://download.pytorch.org/whl/cu121
        fi
        """)
    write(tmp_path, "scripts/build_docker.sh", """
        if [[ ${USE_GPU} == "True" ]]; then
          PYTORCH_DEPS="https://download.pytorch.org/whl/cu126"
        else
          PYTORCH_DEPS="https://download.pytorch.org/whl/cpu"
        fi
        docker build --build-arg PYTORCH_DEPS=${PYTORCH_DEPS} .
        """)
    assert scan(tmp_path) == [
        ("scripts/build_docker.sh", 2, 25, "TRN505", "", "`download.pytorch.org/whl/cu126`"),
        ("scripts/gpu.sh", 2, 41, "TRN505", "", "`download.pytorch.org/whl/cu121`"),
    ]


def test_blocks_spans():
    lines = ["if a; then", "  x", "elif b; then y; else z; fi", "case $v in", "  cpu) p ;;", "  *) q", "esac"]
    got = sorted((b.kind, b.arms) for b in blocks(lines))
    assert got == [
        ("case", [((5, 3), (5, 10)), ((6, 3), (7, 1))]),
        ("if", [((1, 1), (3, 1)), ((3, 1), (3, 17)), ((3, 17), (3, 25))]),
    ]


def test_unclosed_blocks_are_not_read():
    # PowerShell in a Windows CI step: `if (...) {` ... `} else {` ... `}` never reaches `fi`
    assert blocks(["if ($IsWindows) {", "  mamba install cuda-toolkit", "} else {", "  pip install torch+cpu", "}"]) == []
