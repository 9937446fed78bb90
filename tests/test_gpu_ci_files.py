"""project/gpu_ci_files.py and readers/ci.py `_reusable_runner`: the CI folder's files that only jobs on another
accelerator's runners run are that job's lane (guarded `ci-other-accelerator`), as the job's own lines are."""
from __future__ import annotations

import json

from conftest import run_cli, write


def scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", "--show-guarded")
    assert proc.returncode == 0, proc.stderr
    return sorted((f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by") or "",
                   f["message"].split(": ", 1)[1]) for f in json.loads(proc.stdout)["findings"]
                  if f["rule"] in ("TRN505", "TRN522", "TRN603", "TRN605", "TRN610"))


def _workflow(tmp_path):
    write(tmp_path, ".github/workflows/libs.yml", """
        jobs:
          gpu-libs:
            uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
            with:
              runner: "linux.g5.4xlarge.nvidia.gpu"
              docker-image: "nvidia/cuda:12.4.0-devel-ubuntu22.04"
              script: |
                bash .github/unittest/gpu_lib/run_all.sh
          cpu-unit:
            uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
            with:
              runner: linux.4xlarge
              docker-image: "nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04"
              script: |
                bash .github/unittest/shared/run_test.sh
        """)
    write(tmp_path, ".github/unittest/gpu_lib/run_all.sh", """
        this_dir="$( cd "$( dirname "${BASH_SOURCE[0]}" )" >/dev/null 2>&1 && pwd )"
        bash ${this_dir}/setup_env.sh
        bash ${this_dir}/run_test.sh
        """)
    write(tmp_path, ".github/unittest/gpu_lib/setup_env.sh", """
        conda env update --file "${this_dir}/environment.yml" --prune
        pip install torch --index-url https://download.pytorch.org/whl/cu128
        """)
    write(tmp_path, ".github/unittest/gpu_lib/environment.yml", """
        channels:
          - defaults
        dependencies:
          - python=3.10.12
        """)
    write(tmp_path, ".github/unittest/gpu_lib/run_test.sh", """
        export CUDA_VISIBLE_DEVICES=0
        pytest test/
        """)
    write(tmp_path, ".github/unittest/shared/run_test.sh", """
        export CUDA_VISIBLE_DEVICES=0
        pytest test/
        """)


def test_files_only_a_gpu_runner_job_runs_are_guarded(tmp_path):
    _workflow(tmp_path)
    assert scan(tmp_path) == [
        (".github/unittest/gpu_lib/environment.yml", 4, 5, "TRN522", "ci-other-accelerator",
         "`python=3.10.12`"),
        (".github/unittest/gpu_lib/run_test.sh", 1, 8, "TRN605", "ci-other-accelerator", "`CUDA_VISIBLE_DEVICES`"),
        (".github/unittest/gpu_lib/setup_env.sh", 2, 39, "TRN505", "ci-other-accelerator",
         "`download.pytorch.org/whl/cu128`"),
        # the file a CPU job runs stays reported, and so does the CUDA image of the job on a CPU runner
        (".github/unittest/shared/run_test.sh", 1, 8, "TRN605", "", "`CUDA_VISIBLE_DEVICES`"),
        # the reusable workflow's `runner` input is the job's machine: its CUDA image belongs to the GPU leg
        (".github/workflows/libs.yml", 5, 15, "TRN610", "", "`runner: linux.g5.4xlarge.nvidia.gpu`"),
        (".github/workflows/libs.yml", 6, 22, "TRN603", "ci-other-accelerator",
         "`nvidia/cuda:12.4.0-devel-ubuntu22.04`"),
        (".github/workflows/libs.yml", 13, 22, "TRN603", "", "`nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04`"),
    ]


def test_a_file_a_cpu_job_also_runs_stays_reported(tmp_path):
    _workflow(tmp_path)
    write(tmp_path, ".github/workflows/cpu.yml", """
        jobs:
          cpu:
            runs-on: ubuntu-latest
            steps:
              - run: bash .github/unittest/gpu_lib/setup_env.sh
        """)
    got = [t for t in scan(tmp_path) if t[0].startswith(".github/unittest/gpu_lib/")]
    assert got == [
        # named by the CPU job: setup_env.sh and the environment it reads stay reported
        (".github/unittest/gpu_lib/environment.yml", 4, 5, "TRN522", "", "`python=3.10.12`"),
        (".github/unittest/gpu_lib/run_test.sh", 1, 8, "TRN605", "ci-other-accelerator", "`CUDA_VISIBLE_DEVICES`"),
        (".github/unittest/gpu_lib/setup_env.sh", 2, 39, "TRN505", "", "`download.pytorch.org/whl/cu128`"),
    ]


def _wheel_matrix(tmp_path, cpu_step_names_env: bool = False):
    # the torch-extension wheel workflow of the PyG libraries: one job, a cpu/cuXXX matrix axis, and steps run
    # only in the CUDA legs that source a per-version script through placeholders
    write(tmp_path, ".github/workflows/building.yml", """
        jobs:
          wheel:
            runs-on: ${{ matrix.os }}
            strategy:
              matrix:
                os: [ubuntu-22.04, windows-2019]
                cuda-version: ['cpu', 'cu118', 'cu126']
            steps:
              - uses: actions/checkout@v2
              - name: Install CUDA ${{ matrix.cuda-version }}
                if: ${{ matrix.cuda-version != 'cpu' }}
                run: |
                  bash .github/workflows/cuda/${{ matrix.cuda-version }}-${{ runner.os }}.sh
              - name: Build wheel for CPU
                if: ${{ matrix.cuda-version == 'cpu' }}
                run: |
                  FORCE_ONLY_CPU=1 python setup.py bdist_wheel%s
              - name: Build wheel for GPU
                if: ${{ matrix.cuda-version != 'cpu' }}
                run: |
                  source .github/workflows/cuda/${{ matrix.cuda-version }}-${{ runner.os }}-env.sh
                  python setup.py bdist_wheel
        """ % ("\n          source .github/workflows/cuda/cu118-Linux-env.sh" if cpu_step_names_env else ""))
    for v in ("cu118", "cu126", "cu102"):  # cu102: an old leg's script the matrix no longer lists
        write(tmp_path, f".github/workflows/cuda/{v}-Linux-env.sh", f"""
            CUDA_HOME=/usr/local/cuda-{v[2:4]}.{v[4:]}
            export FORCE_CUDA=1
            """)
    write(tmp_path, "tools/cuda/cu118-env.sh", """
        export FORCE_CUDA=1
        """)
    write(tmp_path, "setup.py", """
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension
        setup(ext_modules=[CUDAExtension("ops", ["ops.cu"])], cmdclass={"build_ext": BuildExtension})
        """)


def _env_findings(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", "--show-guarded")
    assert proc.returncode == 0, proc.stderr
    return sorted((f["path"], f["line"], f["rule"], f.get("guarded_by") or "")
                  for f in json.loads(proc.stdout)["findings"] if f["rule"] in ("TRN302", "TRN611"))


def test_scripts_only_a_not_cpu_step_sources_are_the_gpu_leg(tmp_path):
    _wheel_matrix(tmp_path)
    assert _env_findings(tmp_path) == [
        # named through the placeholders of a step run only in the CUDA legs: that leg's build setup
        (".github/workflows/cuda/cu102-Linux-env.sh", 1, "TRN611", "ci-other-accelerator"),
        (".github/workflows/cuda/cu102-Linux-env.sh", 2, "TRN302", "ci-other-accelerator"),
        (".github/workflows/cuda/cu118-Linux-env.sh", 1, "TRN611", "ci-other-accelerator"),
        (".github/workflows/cuda/cu118-Linux-env.sh", 2, "TRN302", "ci-other-accelerator"),
        (".github/workflows/cuda/cu126-Linux-env.sh", 1, "TRN611", "ci-other-accelerator"),
        (".github/workflows/cuda/cu126-Linux-env.sh", 2, "TRN302", "ci-other-accelerator"),
        # outside the CI folder: what the project ships, never judged by its CI
        ("setup.py", 3, "TRN302", ""),
        ("tools/cuda/cu118-env.sh", 1, "TRN302", ""),
    ]


def test_a_script_a_cpu_step_also_sources_stays_reported(tmp_path):
    _wheel_matrix(tmp_path, cpu_step_names_env=True)
    assert [f for f in _env_findings(tmp_path) if "cu118-Linux" in f[0]] == [
        (".github/workflows/cuda/cu118-Linux-env.sh", 1, "TRN611", ""),
        (".github/workflows/cuda/cu118-Linux-env.sh", 2, "TRN302", ""),
    ]
