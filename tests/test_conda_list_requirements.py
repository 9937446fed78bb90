"""`conda list --export` output saved as requirements.txt (`name=version=build` per line): read as conda specs.

pip cannot install such a file; `conda create --file` does, so its pins are the environment's: the Python, the
torch build and the CUDA wheels a migration must replace."""
from __future__ import annotations

import json

from conftest import run_cli, write

from trnready.requirements import is_conda_list

EXPORT = """\
# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
_libgcc_mutex=0.1=main
numpy=1.23.5=pypi_0
nvidia-cublas-cu12=12.1.3.1=pypi_0
nvidia-cudnn-cu12=8.9.2.26=pypi_0
python=3.9.18=h955ad1f_0
six=1.16.0=pyhd3eb1b0_1
torch=2.1.0=pypi_0
triton=2.1.0=pypi_0
"""


def scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return sorted((f["path"], f["line"], f["column"], f["rule"], f["message"])
                  for f in json.loads(proc.stdout)["findings"])


def test_an_exported_conda_list_is_read_as_conda_specs(tmp_path):
    write(tmp_path, "requirements.txt", EXPORT)
    assert scan(tmp_path) == [
        ("requirements.txt", 5, 1, "TRN524", "NumPy pinned below 1.26, its first release with Python 3.12 wheels: "
         "`numpy=1.23.5=pypi_0`"),
        # one finding for the CUDA runtime wheels, at the first of them
        ("requirements.txt", 6, 1, "TRN510", "NVIDIA CUDA library wheels declared (nvidia-*-cu1x: the CUDA runtime "
         "of a CUDA torch build)"),
        ("requirements.txt", 8, 1, "TRN522", "Python requirement excludes 3.12-3.14: `python=3.9.18=h955ad1f_0`"),
        ("requirements.txt", 10, 1, "TRN506", "PyTorch pinned below 2.13: `torch=2.1.0=pypi_0`"),
        ("requirements.txt", 11, 1, "TRN501", "CUDA-only kernel library declared as a dependency: "
         "`triton=2.1.0=pypi_0`"),
    ]


def test_what_counts_as_an_exported_list():
    assert is_conda_list(EXPORT)
    assert is_conda_list("torch=2.1.0\nnumpy=1.23.5\n")  # `name=version` without a build string
    # pip requirements, even with a stray conda-style line, stay pip requirements
    assert not is_conda_list("torch==2.1.0\nnumpy>=1.26\nscipy=1.11\n")
    assert not is_conda_list("torch\nnumpy\n")
    assert not is_conda_list("# only a comment\n")
    # an explicit spec file lists package URLs after @EXPLICIT: read from the URLs since session 43
    assert is_conda_list("@EXPLICIT\nhttps://conda.anaconda.org/x/linux-64/torch-2.1.0-py3_0.tar.bz2\n")


def test_a_pip_requirements_file_is_unchanged(tmp_path):
    write(tmp_path, "requirements.txt", "torch==2.1.0\ntriton==2.1.0\n")
    assert [(r[1], r[3]) for r in scan(tmp_path)] == [(1, "TRN506"), (2, "TRN501")]


EXPLICIT = """\
# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
@EXPLICIT
https://repo.anaconda.com/pkgs/main/linux-64/_libgcc_mutex-0.1-main.conda
https://repo.anaconda.com/pkgs/main/linux-64/cudatoolkit-10.1.243-h6bb024c_0.conda
https://repo.anaconda.com/pkgs/main/linux-64/python-3.7.6-h0371630_2.conda
https://conda.anaconda.org/pytorch/linux-64/pytorch-1.4.0-py3.7_cuda10.1.243_cudnn7.6.3_0.tar.bz2
https://repo.anaconda.com/pkgs/main/linux-64/six-1.14.0-py37_0.conda
"""


def test_an_explicit_conda_spec_file_is_read_from_its_archive_urls(tmp_path):
    # `conda list --explicit > spec-file.txt` (TVRetrieval, blind61): one archive URL per package, `name-version-build`
    write(tmp_path, "spec-file.txt", EXPLICIT)
    assert scan(tmp_path) == [
        ("spec-file.txt", 6, 46, "TRN505", "CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index): "
         "`cudatoolkit=10.1.243=h6bb024c_0`"),
        ("spec-file.txt", 7, 46, "TRN522", "Python requirement excludes 3.12-3.14: `python=3.7.6=h0371630_2`"),
        ("spec-file.txt", 8, 45, "TRN506", "PyTorch pinned below 2.13: `pytorch=1.4.0=py3.7_cuda10.1.243_cudnn7.6.3_0`"),
    ]
    assert is_conda_list(EXPLICIT)
