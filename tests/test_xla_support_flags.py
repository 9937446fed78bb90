"""neuron-guarded: a flag set by an optional import of torch_xla (not installed with TorchNeuron) is False on
Neuron, read in its own module, imported from another or read as `module.has_xla_support`; legacy Neuron code
(a module importing torch_neuronx) keeps its XLA path reported."""
import ast

from conftest import CONTEXT_FIXTURES, scan_findings
from trnready.context._xla_flags import absent_packages, legacy_neuron_module

VALUES = {"cuda-only-packages": ["apex"], "tpu-only-packages": ["torch_xla"]}


def test_xla_flag_paths_are_guarded_and_legacy_neuron_stays():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "xla_support_flags",
                                                             "--show-guarded")]
    assert found == [
        ("neuron_train.py", 5, "TRN221", False),  # imports torch_neuronx: the XLA path is the one to port
        ("neuron_train.py", 17, "TRN223", False),
        ("pkg/saver.py", 8, "TRN221", True),  # under `if dist.has_xla_support:`
        ("pkg/saver.py", 16, "TRN242", False),
        ("pkg/step.py", 4, "TRN221", True),
        ("pkg/step.py", 10, "TRN243", False),
        ("pkg/step.py", 15, "TRN226", True),  # under `if _XLA_OK:` set after the torch_xla import
        ("pkg/step.py", 17, "TRN226", False),  # under a flag that is not one (`>= 0` is always true)
        ("pkg/xla_model.py", 4, "TRN221", True),  # every use under `if has_xla_support:`
        ("test_saving.py", 9, "TRN226", True),  # skipif(not has_xla_support)
        ("test_saving.py", 14, "TRN226", True),  # an operation in a test beside project code (policy s23)
    ]


def test_legacy_neuron_module_keeps_torch_xla():
    legacy = ast.parse("import torch\ntry:\n    import torch_neuronx\nexcept ImportError:\n    pass\n").body
    plain = ast.parse("import torch\nfrom neuron_utils import x\n").body
    assert legacy_neuron_module(legacy) and not legacy_neuron_module(plain)
    assert absent_packages(legacy, VALUES) == {"apex"}
    assert absent_packages(plain, VALUES) == {"apex", "torch_xla"}
