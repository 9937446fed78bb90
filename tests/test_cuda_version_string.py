"""TRN240: torch.version.cuda used as a string raises on the build TorchNeuron runs on, where it is None; behind a
None test (`torch.version.cuda is not None and ...`) it never runs there (neuron-guarded)."""
from conftest import scan_findings, write

CODE = """\
import torch

CUDA_MAJOR = int(torch.version.cuda.split(".")[0])
if torch.version.cuda is not None and torch.version.cuda.startswith("12"):
    FLAGS = ["-arch=sm_90"]
print("built with", torch.version.cuda)
"""


def test_string_use_is_reported_and_a_none_test_guards_it(tmp_path):
    write(tmp_path, "ops.py", CODE)
    got = [(f[1], f[2], f[3], f[4], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN240"]
    assert got == [
        (3, 18, "TRN240", "torch.version.cuda (None without CUDA) used as a string: `torch.version.cuda.split`", False),
        (4, 39, "TRN240", "torch.version.cuda (None without CUDA) used as a string: `torch.version.cuda.startswith`",
         True),
    ]


SETUP = """\
import torch
from setuptools import setup


def check_cuda_torch_binary_vs_bare_metal(cuda_dir):
    torch_binary_major = torch.version.cuda.split(".")[0]
    return torch_binary_major


def torch_cuda_major():
    return torch.version.cuda.split(".")[0]


setup(name="ops", version=torch_cuda_major())
"""


def test_a_setup_py_helper_nothing_calls_never_runs(tmp_path):
    write(tmp_path, "setup.py", SETUP)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN240"]
    # line 6: a helper of the setup.py that no line of it names (uncalled-build-helper); line 11: a helper it calls
    assert got == [(6, 26, "TRN240", True), (11, 12, "TRN240", False)]
