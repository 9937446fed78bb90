"""other-accelerator-code, and the other-accelerator switches of neuron-guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

XLA = "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): `torch_xla.core.xla_model`"
API = "torch.cuda device, memory, stream or RNG API: `torch.cuda.{}`"


def test_code_named_for_another_accelerator_is_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "other_accelerator_code", "--show-guarded") == [
        # accelerators/xla.py: a class named for XLA is the TPU path outside legacy Neuron code; a function named for
        # it (xla_device_count, 13) is not, and run()'s import (19) is one finding with line 13's (one per library
        # per file)
        ("accelerators/xla.py", 6, 9, "TRN221", XLA, True),
        ("accelerators/xla.py", 9, 29, "TRN226", '"xla" device string or distributed backend: `xla`', True),
        ("accelerators/xla.py", 13, 5, "TRN221", "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): "
         "`torch_xla.runtime`", False),
        # legacy_neuron.py imports torch_neuronx: there XLA is the Neuron path being ported
        ("legacy_neuron.py", 6, 9, "TRN221", XLA, False),
        # line 5 assigns over torch.cuda.synchronize: replaced-not-called drops it
        ("library/ipex/hijacks.py", 6, 5, "TRN243", API.format("empty_cache"), True),  # a directory named ipex
        ("train.py", 6, 5, "TRN243", API.format("empty_cache"), True),  # def init_xpu_backend
        ("train.py", 10, 5, "TRN243", API.format("empty_cache"), False),  # `output` holds no accelerator word
        ("train.py", 14, 5, "TRN243", API.format("synchronize"), False),  # "hip" is not in the word list
        ("train.py", 20, 9, "TRN243", API.format("synchronize"), True),  # if args.use_ipex:
        ("train.py", 22, 9, "TRN243", API.format("synchronize"), True),  # if device.type == "mps":
        ("train.py", 24, 9, "TRN243", API.format("synchronize"), True),  # if is_torch_npu_available():
        ("train.py", 26, 9, "TRN243", API.format("synchronize"), False),  # != "hpu": true on Neuron
        ("train.py", 31, 9, "TRN243", API.format("synchronize"), True),  # class XPUAttention
    ]


def test_registered_as_a_guard_over_every_python_kind():
    p = context.get("other-accelerator-code")
    assert p.effect == "guard" and "call" in p.kinds and "import" in p.kinds
