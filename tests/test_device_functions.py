"""File step device_functions: numba device functions are places of their file's kernel finding."""
import json

from conftest import FIXTURES, run_cli

KERNELS = FIXTURES / "accuracy" / "custom-cuda-kernel"


def _findings(name):
    proc = run_cli("scan", KERNELS / name, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN303"]


def test_device_functions_fold_into_the_kernel_of_their_file():
    assert _findings("numba_device_functions.py") == [(21, "TRN303", [7, 12])]


def test_a_file_of_device_functions_alone_keeps_each():
    assert _findings("numba_device_only.py") == [(5, "TRN303", []), (10, "TRN303", [])]
