"""tpu-described-module: torch_xla in a module whose docstring describes it as TPU code is no migration item."""
import ast

from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context
from trnready.context.tpu_described_module import described_for_tpu


def test_tpu_launcher_is_guarded_and_general_modules_stay():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "tpu_described_module",
                                                             "--show-guarded")]
    # spawn_cores.py describes itself as a TPU launcher; spawn_any_device.py names CPUs and GPUs too and
    # spawn_plain.py has no docstring: both keep their finding
    assert found == [
        ("spawn_any_device.py", 4, "TRN221", False),
        ("spawn_cores.py", 9, "TRN221", True),
        ("spawn_plain.py", 3, "TRN221", False),
    ]


def test_first_paragraph_only_and_other_devices():
    assert described_for_tpu(ast.parse('"""Launcher for TPU pods."""'))
    assert described_for_tpu(ast.parse('"""Helpers for TPUs.\n\nOn a GPU use torchrun instead."""'))
    assert not described_for_tpu(ast.parse('"""Runs on CPU, GPU and TPU."""'))
    assert not described_for_tpu(ast.parse('"""Neuron and TPU device helpers."""'))
    assert not described_for_tpu(ast.parse('"""Output helpers (stpu, output)."""'))
    assert not described_for_tpu(ast.parse("x = 1"))


def test_registered_as_a_guard():
    assert context.get("tpu-described-module").effect == "guard"
