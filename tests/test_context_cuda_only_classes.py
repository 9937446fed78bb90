"""neuron-guarded, test classes made for CUDA only: `instantiate_device_type_tests(TestX, globals(), only_for=("cuda",))`
makes no variant of TestX on a host without CUDA, so its body, the helpers only it uses and the module-level values
only it reads (a capability probe choosing its dtypes) run for nobody there. A class also made for another device,
made twice, or derived from, and a value another test reads, stay reported."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

SYNC = "torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`"
BF16 = "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_bf16_supported`"
MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_classes_made_for_cuda_only_are_guarded_with_what_only_they_use():
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_only_classes", "--format", "json", "--no-cache",
                   "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["column"], f["rule"], f["message"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        (7, 12, "TRN241", MOVE, "neuron-guarded"),  # _prep: called only by TestNorm
        (10, 51, "TRN243", BF16, "neuron-guarded"),  # autocast_dtypes: read only by TestNorm
        (11, 49, "TRN243", BF16, None),  # shared_dtypes: TestAnyDevice reads it too
        (18, 9, "TRN243", SYNC, "neuron-guarded"),  # TestNorm: only_for=("cuda",)
        (24, 9, "TRN243", SYNC, None),  # TestAnyDevice: only_for=("cpu", "cuda")
        (29, 9, "TRN243", SYNC, None),  # TestTwice: made again for the CPU
        (34, 9, "TRN243", SYNC, None),  # TestBase: TestDerived inherits its tests and is made for every device
    ]
