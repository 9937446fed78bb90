"""stub-torch-test: a test module that stands a fake in for torch (or the project's device module) runs no
device code; a test that reads sys.modules, or a docstring alone, does not make a module hermetic."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

CUDA = '"cuda" device string: `cuda`'
LIGHTNING = "Lightning Trainer / Fabric on the GPU accelerator: `accelerator`"
BF16 = "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_bf16_supported`"


def test_modules_with_a_stand_in_are_guarded_real_device_tests_are_not():
    assert scan_findings(CONTEXT_FIXTURES / "stub_torch_test", "--show-guarded") == [
        # source scope: a stand-in written in library code guards nothing
        ("proj/proj/device.py", 7, 22, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`", False),
        # patch.dict(sys.modules, {"proj.hardware": fake}): the project's device module is a stand-in
        ("proj/tests/test_fake_hardware.py", 9, 17, "TRN242", CUDA, True),
        ("proj/tests/test_fake_hardware.py", 11, 29, "TRN242", CUDA, True),
        # monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch")-made fake)
        ("proj/tests/test_fake_torch.py", 16, 16, "TRN245",
         "CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER: `CUDA_VISIBLE_DEVICES`", True),
        # a test patching a CUDA query by name (mock.patch("...cuda.num_cuda_devices"), patch.object(CUDAAccelerator,
        # "is_available")) or taking a pretend-GPU fixture (cuda_count_4) runs against pretend GPUs: guarded; a patch of
        # something else (log_memory) and a real GPU test are not
        ("proj/tests/test_mocked_cuda.py", 10, 34, "TRN247", LIGHTNING, True),
        ("proj/tests/test_mocked_cuda.py", 16, 38, "TRN247", LIGHTNING, True),
        ("proj/tests/test_mocked_cuda.py", 20, 34, "TRN247", LIGHTNING, True),
        ("proj/tests/test_mocked_cuda.py", 25, 30, "TRN242", CUDA, False),
        ("proj/tests/test_mocked_cuda.py", 29, 9, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", False),
        # the same real GPU test then asserts the tensor is on CUDA: that line changes with the port too
        ("proj/tests/test_mocked_cuda.py", 30, 12, "TRN354",
         "The program stops unless a tensor is on CUDA (`.is_cuda` is False for every tensor on Trainium)", False),
        # torch.cuda.is_bf16_supported = lambda: False: the test answers for torch.cuda
        ("proj/tests/test_pretend_cuda.py", 5, 13, "TRN243", BF16, True),
        # line 6 assigns over torch.cuda.is_bf16_supported: replaced-not-called drops it
        ("proj/tests/test_pretend_cuda.py", 8, 14, "TRN253",
         'autocast or custom_fwd / custom_bwd on the "cuda" device: `torch.amp.autocast`', True),
        # (line 11 calls `saved`, the alias of the function read on line 5: a place of that finding)
        # reads sys.modules["torch"], installs nothing: a real GPU test
        ("proj/tests/test_real_gpu.py", 7, 9, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", False),
        ("proj/tests/test_real_gpu.py", 9, 35, "TRN242", CUDA, False),
        # a test that answers for torch.cuda itself: that test alone, not its real-device neighbours
        ("proj/tests/test_real_gpu.py", 14, 12, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.get_device_capability`", True),
        ("proj/tests/test_real_gpu.py", 18, 9, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", False),
        # a docstring saying "hermetic, CPU-only" is no stand-in
        ("proj/tests/test_torch_docstring.py", 6, 38, "TRN242", CUDA, False),
        ("proj/tests/test_torch_docstring.py", 7, 12, "TRN354",
         "The program stops unless a tensor is on CUDA (`.is_cuda` is False for every tensor on Trainium)", False),
    ]


def test_registered_as_a_guard():
    assert context.get("stub-torch-test").effect == "guard"
