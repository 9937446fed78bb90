"""An extension whose wrappers run its CPU kernel on a host copy off CUDA is a performance item
(trnready/project/cpu_kernel_fallback.py), through the real CLI on a small project."""
import ast
import json

from conftest import FIXTURES, run_cli

from trnready.project.cpu_kernel_fallback import falls_back

ROOT = FIXTURES / "cpu_kernel_fallback"


def test_wrappers_with_a_host_round_trip_lower_the_extension_to_an_advisory():
    proc = run_cli("scan", ROOT, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = {f["path"]: f["severity"] for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"
           and f["path"].startswith("sparseops/")}
    # pack.py: CUDA kernel for CUDA tensors, CPU kernel on a host copy otherwise; table.py builds a GPU table on
    # every device; strict.py raises off CUDA
    assert got == {"sparseops/pack.py": "advisory", "sparseops/table.py": "blocker", "sparseops/strict.py": "blocker"}


def test_a_cuda_kernel_outside_a_cuda_arm_or_a_call_at_import_keeps_the_blocker():
    unconditional = ("import ext\n\n\ndef f(x):\n    y = ext.f_cuda(x)\n"
                     "    return ext.f_cpu(x.cpu()).to(x.device) if y is None else y\n")
    at_import = "import ext\n\next.init_cpu()\n\n\ndef f(x):\n    return ext.f_cpu(x.cpu()).to(x.device)\n"
    no_trip = ("import ext\n\n\ndef f(x):\n    if x.is_cuda:\n        return ext.f_cuda(x)\n"
               "    return ext.f_cpu(x)\n")
    fine = ("import ext\n\n\ndef f(x):\n    if x.is_cuda:\n        return ext.f_cuda(x)\n"
            "    return ext.f_cpu(x.cpu()).to(x.device)\n")
    assert [falls_back(ast.parse(t), 1) for t in (unconditional, at_import, no_trip, fine)] == \
        [False, False, False, True]
