"""tpu-only-code and the TPU/instance-flag conditions of neuron-guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

XLA = "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): `{}`"
API = "torch.cuda device, memory, stream or RNG API: `torch.cuda.{}`"


def test_tpu_paths_and_instance_flags_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "neuron_guarded_tpu", "--show-guarded") == [
        ("device_tpu.py", 1, 1, "TRN221", XLA.format("torch_xla.core.xla_model"), True),  # a TPU module
        # PJRT_DEVICE == "TPU", "TPU_NAME" in os.environ, def tpu_pod_launcher: one folded, guarded finding
        ("launch.py", 6, 9, "TRN221", XLA.format("torch_xla.distributed.xla_multiprocessing"), True),
        ("launch.py", 22, 5, "TRN221", XLA.format("torch_xla.runtime"), False),  # `output` is not a TPU word
        ("trainer.py", 8, 21, "TRN243", API.format("is_available"), False),  # the flag itself: a device pick
        ("trainer.py", 13, 13, "TRN243", API.format("empty_cache"), True),  # if self.cuda: (set from the check)
        ("trainer.py", 15, 13, "TRN221", XLA.format("torch_xla.core.xla_model"), True),  # if self.tpu:
        ("trainer.py", 17, 25, "TRN121", "float64 or complex128 dtype: `torch.float64`", False),
        ("trainer.py", 26, 9, "TRN243", API.format("synchronize"), False),  # use_cuda_graphs: a user switch
        # self.cuda is also set to True in this class: not a flag of the check
        ("worker.py", 11, 13, "TRN243", API.format("synchronize"), False),
    ]


def test_registered_as_a_guard():
    assert context.get("tpu-only-code").effect == "guard"
