"""neuron-guarded, test skips a Neuron machine always takes: GPU requirements read from decorator, marker and check
names (catalogue vocabulary), GPU counts by keyword, pytest.param marks, the file's own skip definitions, skipping
helpers and fixtures, and test-module helpers used only by such tests. Each rule has look-alikes that stay reported."""
import json

from conftest import CONTEXT_FIXTURES, run_cli, scan_findings
from trnready.catalogue import load_catalogue
from trnready.context._test_skips import SkipNames, words

FIXTURE = CONTEXT_FIXTURES / "test_skips"

SYNC = "torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`"
AVAILABLE = "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`"
STRING = '"cuda" device string: `cuda`'
MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"

# Every finding of the fixture with --show-guarded: (path, line, column, rule, message, guarded).
EXPECTED = [
    # conftest.py: its skip definition is a skip guard; its helpers may serve other modules, so they stay
    ("conftest.py", 4, 36, "TRN243", AVAILABLE, True),
    ("conftest.py", 13, 33, "TRN242", STRING, False),
    # test_collect_triton.py: a test module importing Triton fails on Neuron, but nothing says its tests are for
    # GPUs only: porting them starts at the import, and what follows is the rest of that work
    ("test_collect_triton.py", 2, 1, "TRN288", "Triton: `triton`", False),
    ("test_collect_triton.py", 6, 5, "TRN243", SYNC, False),
    # test_module_skip.py: module skipped unless an SM89 or MI300 GPU; test_module_skip_ci.py: or on CI (unknown)
    ("test_module_skip.py", 3, 1, "TRN201", "TorchAO (quantization and float8 training): `torchao.utils`", True),  # test-exercised-operation (policy s23)
    ("test_module_skip.py", 10, 5, "TRN243", SYNC, True),
    ("test_module_skip_ci.py", 3, 1, "TRN201", "TorchAO (quantization and float8 training): `torchao.utils`", True),  # test-exercised-operation (policy s23)
    ("test_module_skip_ci.py", 10, 5, "TRN243", SYNC, False),
    # lib_checks.py: library code behind `if has_triton():` stays (it may be the only implementation)
    ("lib_checks.py", 6, 20, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.current_device`",
     False),
    # test_checks.py
    # an FP8/TorchAO use in a test beside other code is guarded (policy s23)
    ("test_checks.py", 8, 1, "TRN201", "TorchAO (quantization and float8 training): `torchao.utils`", True),
    ("test_checks.py", 19, 12, "TRN243", AVAILABLE, True),  # _is_fp8_sdpa_available: used only in a skip condition
    ("test_checks.py", 30, 12, "TRN243", AVAILABLE, True),  # _is_hopper: likewise
    ("test_checks.py", 39, 5, "TRN243", SYNC, True),  # skipif(not has_triton())
    ("test_checks.py", 44, 5, "TRN243", SYNC, True),  # skipUnless(is_sm_at_least_90())
    ("test_checks.py", 49, 5, "TRN243", SYNC, True),  # skipIf(not _is_fp8_sdpa_available()): returns False first
    ("test_checks.py", 54, 5, "TRN243", SYNC, True),  # skipUnless(... and _is_hopper()): returns a CUDA check
    ("test_checks.py", 59, 5, "TRN243", SYNC, True),  # requires_grouped_kernel = skipif(not _HAS_TRITON)
    ("test_checks.py", 64, 9, "TRN243", SYNC, True),  # if TEST_CUDA: (imported)
    ("test_checks.py", 70, 5, "TRN243", SYNC, False),  # is_cuda_available() of the file returns True
    ("test_checks.py", 75, 5, "TRN243", SYNC, False),  # is_torchao_available(): torchao exists on Neuron
    ("test_checks.py", 80, 5, "TRN243", SYNC, False),  # slow_only = skipif(not RUN_SLOW)
    ("test_checks.py", 85, 9, "TRN243", SYNC, False),  # if TEST_CUDA_LOCAL: assigned from the environment
    ("test_checks.py", 90, 16, "TRN243", AVAILABLE, False),  # one of two definitions of _fast_path_ok
    ("test_checks.py", 98, 5, "TRN243", SYNC, False),  # _fast_path_ok() defined twice, once returning True
    # test_counts.py
    ("test_counts.py", 10, 5, "TRN243", SYNC, True),  # @_RunIf(min_cuda_gpus=1)
    ("test_counts.py", 15, 5, "TRN243", SYNC, False),  # @_RunIf(min_cuda_gpus=0)
    ("test_counts.py", 19, 84, "TRN242", STRING, True),  # pytest.param(..., marks=_RunIf(min_cuda_gpus=1))
    ("test_counts.py", 24, 63, "TRN242", STRING, True),  # marks=[pytest.mark.xfail, _RunIf(min_cuda_gpus=1)]
    ("test_counts.py", 29, 63, "TRN242", STRING, False),  # marks=pytest.mark.xfail(...)
    ("test_counts.py", 34, 50, "TRN242", STRING, False),  # a plain parameter
    ("test_counts.py", 42, 5, "TRN243", SYNC, True),  # @_RunIf(deepspeed=True): a CUDA-only package
    ("test_counts.py", 47, 5, "TRN243", SYNC, True),  # @_RunIf(bf16_cuda=True): a GPU feature
    ("test_counts.py", 52, 5, "TRN243", SYNC, False),  # @_RunIf(skip_windows=True) asks for nothing GPU
    ("test_counts.py", 57, 5, "TRN243", SYNC, False),  # @_RunIf(deepspeed=False)
    ("test_counts.py", 61, 2, "TRN610",
     "GPU resource request in a job, container or cluster definition: `ray.remote`", False),
    ("test_counts.py", 64, 22, "TRN241", MOVE, False),  # @remote(num_gpus=1): a resource request, not a skip
    # test_fixtures.py
    ("test_fixtures.py", 6, 12, "TRN243", AVAILABLE, True),  # the skip guard of the skipping helper
    ("test_fixtures.py", 28, 5, "TRN243", SYNC, True),  # takes the skipping fixture
    ("test_fixtures.py", 32, 5, "TRN243", SYNC, True),  # takes a fixture (name="fused") that takes it
    ("test_fixtures.py", 37, 5, "TRN243", SYNC, True),  # @pytest.mark.usefixtures("kernels")
    ("test_fixtures.py", 42, 5, "TRN243", SYNC, True),  # after a call of the skipping helper
    ("test_fixtures.py", 47, 5, "TRN243", SYNC, True),  # after pytest.importorskip("triton")
    ("test_fixtures.py", 56, 9, "TRN243", SYNC, True),  # class with a skipping autouse fixture
    ("test_fixtures.py", 61, 5, "TRN243", SYNC, False),  # takes a fixture that does not skip
    ("test_fixtures.py", 66, 5, "TRN243", SYNC, False),  # pytest.importorskip("numpy")
    ("test_fixtures.py", 71, 5, "TRN243", SYNC, False),  # parametrize over the fixture's name replaces it
    # test_helpers.py
    ("test_helpers.py", 4, 36, "TRN243", AVAILABLE, True),  # cuda_only = pytest.mark.skipif(...): a skip guard
    ("test_helpers.py", 8, 30, "TRN242", STRING, True),  # run_inner: called only by a guarded test
    ("test_helpers.py", 13, 5, "TRN243", SYNC, True),  # _inner: called only by run_inner
    ("test_helpers.py", 19, 22, "TRN241", MOVE, True),  # class DummyWorker: used only by a guarded test
    ("test_helpers.py", 23, 5, "TRN243", SYNC, False),  # shared: also called by test_b
    ("test_helpers.py", 28, 5, "TRN243", SYNC, False),  # unused: no reference, nothing is known
    ("test_helpers.py", 40, 9, "TRN243", SYNC, True),  # self._check(): only from the guarded test
    ("test_helpers.py", 43, 9, "TRN243", SYNC, False),  # _never_called: no reference
    # test_names.py: guarded by name
    ("test_names.py", 11, 5, "TRN243", SYNC, True),  # @require_bitsandbytes
    ("test_names.py", 16, 5, "TRN243", SYNC, True),  # @_requires_cuda
    ("test_names.py", 21, 5, "TRN243", SYNC, True),  # @skip_if_no_triton
    ("test_names.py", 26, 5, "TRN243", SYNC, True),  # @sm80_or_better_only
    ("test_names.py", 31, 5, "TRN243", SYNC, True),  # @pytest.mark.multi_gpu_tests
    ("test_names.py", 36, 5, "TRN243", SYNC, True),  # @pytest.mark.gpu
    ("test_names.py", 43, 9, "TRN243", SYNC, True),  # class under @require_bitsandbytes
    # test_names.py: look-alikes
    ("test_names.py", 49, 5, "TRN243", SYNC, False),  # @require_torch
    ("test_names.py", 54, 5, "TRN243", SYNC, False),  # @slow
    ("test_names.py", 59, 5, "TRN243", SYNC, False),  # @require_torchao
    ("test_names.py", 64, 5, "TRN243", SYNC, False),  # @require_torch_accelerator
    ("test_names.py", 69, 5, "TRN243", SYNC, False),  # @require_non_cpu
    ("test_names.py", 74, 5, "TRN243", SYNC, False),  # @require_torch_non_multi_gpu
    ("test_names.py", 79, 5, "TRN243", SYNC, False),  # @require_torch_up_to_2_gpus
    ("test_names.py", 84, 5, "TRN243", SYNC, False),  # @skip_if_cuda
    ("test_names.py", 89, 5, "TRN243", SYNC, False),  # @pytest.mark.bitsandbytes
    ("test_names.py", 94, 5, "TRN243", SYNC, False),  # @pytest.mark.slow
]


def test_guarded_and_look_alikes():
    assert sorted(scan_findings(FIXTURE, "--show-guarded")) == sorted(EXPECTED)


def test_default_report_keeps_only_the_look_alikes():
    assert sorted(scan_findings(FIXTURE)) == sorted(f for f in EXPECTED if not f[5])


def test_words():
    assert words("skipIfNoCuda") == ("skip", "if", "no", "cuda")
    assert words("_has_cusparseLt") == ("has", "cusparse", "lt")
    assert words("sm80_or_better_only") == ("sm", "80", "or", "better", "only")
    assert words("is_MI300") == ("is", "mi", "300")


def test_vocabulary_reads_names_by_their_words():
    names = SkipNames(load_catalogue().context_values)
    for name in ("require_bitsandbytes", "_requires_cuda", "requireTorchGPU", "onlyCUDA", "cuda_only",
                 "skip_if_no_flash_attn", "requires_cuda_and_triton", "sm80_or_better_only", "require_torch_multi_gpu"):
        assert names.requirement(name), name
    for name in ("require_torch", "require_torchao", "require_non_cpu", "require_torch_accelerator", "skip_if_cuda",
                 "require_torch_non_multi_gpu", "require_torch_up_to_2_gpus", "skipIfRocm", "requires", "cuda"):
        assert not names.requirement(name), name
    for name in ("gpu", "multi_gpu_tests", "single_gpu_tests", "cuda"):
        assert names.marker(name), name
    for name in ("slow", "bitsandbytes", "skip_cuda", "cpu", "parametrize"):
        assert not names.marker(name), name
    for name in ("has_triton", "is_xpu_available", "TEST_CUDA", "is_sm_at_least_90", "_is_hopper",
                 "is_ampere_or_newer", "_has_cusparseLt", "is_flash_attn_2_available", "is_torch_cuda_available", "is_MI300"):
        assert names.check(name), name
    for name in ("cuda", "is_torchao_available", "has_cpu", "is_cuda_graph_supported", "use_triton", "is_available"):
        assert not names.check(name), name


# test_classes.py: test classes whose every test is skipped, and the helpers they hand over by reference
CLASSES = [
    ("test_classes.py", 10, 9, "TRN261", "cuDNN / CUDA backend flag: `torch.backends.cuda.matmul`", True),  # setUp
    ("test_classes.py", 12, 26, "TRN243", AVAILABLE, True),
    ("test_classes.py", 16, 22, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`",
     True),
    ("test_classes.py", 22, 9, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group`",
     True),  # @classmethod _run, handed over only by a skipped test
    # look-alikes: a class with a test that runs, a class another class derives from
    ("test_classes.py", 27, 9, "TRN261", "cuDNN / CUDA backend flag: `torch.backends.cuda.matmul`", False),
    ("test_classes.py", 29, 26, "TRN243", AVAILABLE, True),
    ("test_classes.py", 38, 9, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group`",
     False),  # _shared is handed over by test_cpu too
    ("test_classes.py", 43, 9, "TRN261", "cuDNN / CUDA backend flag: `torch.backends.cuda.matmul`", False),
    ("test_classes.py", 45, 26, "TRN243", AVAILABLE, True),
    ("test_classes.py", 58, 9, "TRN243", SYNC, True),  # class under an unconditional @pytest.mark.skip
    ("test_classes.py", 63, 5, "TRN243", SYNC, True),  # @unittest.skip("broken")
    ("test_classes.py", 68, 5, "TRN243", SYNC, False),  # look-alike: skipif(False)
]

# test_switches.py: a parameter that is True only in skipped parameter sets
SWITCHES = [
    ("test_switches.py", 4, 36, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`",
     True),
    ("test_switches.py", 12, 27, "TRN242", STRING, True),  # "cuda" if cuda else "cpu"
    ("test_switches.py", 14, 23, "TRN242", STRING, True),  # if cuda: ... else: ...
    # the autocast's device_type is resolved as a value (cuda or cpu), which the switch does not reach yet
    ("test_switches.py", 17, 10, "TRN253", "autocast or custom_fwd / custom_bwd on the \"cuda\" device: "
     "`torch.autocast` (`device_type` may be 'cuda' or 'cpu')", False),
    ("test_switches.py", 28, 23, "TRN242", STRING, False),  # look-alike: the True set runs too
]

# test_setup_base.py: test classes deriving from a class of the file whose setUp skips without two GPUs
SETUPS = [
    ("test_setup_base.py", 8, 12, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`",
     True),  # the base's own skip check
    ("test_setup_base.py", 13, 43, "TRN242", STRING, True),  # a helper of the base class
    ("test_setup_base.py", 18, 20, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", True),  # inherited
    ("test_setup_base.py", 27, 9, "TRN243", SYNC, True),  # its setUp calls the base's first
    ("test_setup_base.py", 35, 9, "TRN243", SYNC, False),  # look-alike: its setUp replaces the base's, no skip
]

EXPECTED += CLASSES + SWITCHES + SETUPS  # the two tests above scan the whole fixture directory


def test_a_test_generated_for_cuda_devices_only_is_guarded(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_rng.py").write_text('''import torch
from thunder.tests.framework import instantiate
from thunder import devices


@instantiate(dtypes=(torch.float32,), devicetypes=(devices.DeviceType.CUDA,))
def test_uniform_philox(executor, device, dtype):
    torch.cuda.manual_seed(0)


@instantiate(only_for=("cuda",))
def test_only_cuda(device):
    torch.cuda.synchronize()


@instantiate(devicetypes=(devices.DeviceType.CPU, devices.DeviceType.CUDA))
def test_both(device):
    torch.cuda.synchronize()
''')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    found = [(f["line"], f["guarded"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]
    # made for CUDA only: no variant on a Neuron host; a CPU-and-CUDA generator runs the CPU variant there,
    # and the CUDA call in it stays reported
    assert found == [(8, True, "neuron-guarded"), (13, True, "neuron-guarded"), (18, False, None)]


def test_helpers_of_a_unittest_module_in_tests_and_fused_skip_names():
    # opacus: multigpu_check.py (a TestCase module in tests/, not named test_*) whose `setup(rank, world_size)` (no
    # runner hook: it takes two parameters) and demo_basic run only from a test skipped below two GPUs;
    # `@skipifnocuda` reads as skip, if, no, cuda. manual_check.py defines no test case: its helper stays; so do a
    # test under `@skipifcuda` (skipped WITH a GPU) and a one-parameter `setup(module)` (pytest's module hook).
    got = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "test_skip_helpers", "--show-guarded")]
    assert got == [
        ("pkg/tests/helpers.py", 4, "TRN243", True),
        ("pkg/tests/manual_check.py", 6, "TRN241", False),
        ("pkg/tests/manual_check.py", 10, "TRN243", True),  # a count deciding a CPU return (policy s22)
        ("pkg/tests/multigpu_check.py", 8, "TRN271", True),
        ("pkg/tests/multigpu_check.py", 13, "TRN243", True),
        ("pkg/tests/multigpu_check.py", 21, "TRN243", True),
        ("pkg/tests/test_memory.py", 7, "TRN243", True),
        ("pkg/tests/test_memory.py", 12, "TRN243", False),
        ("pkg/tests/test_memory.py", 16, "TRN241", False),
    ]
    names = SkipNames(load_catalogue().context_values)
    assert names.requirement("skipifnocuda") and names.requirement("requirescuda")
    assert not names.requirement("skipifcuda") and not names.requirement("skipifnocudaxyz")


def test_a_test_skipped_on_the_cpu_context_for_a_gpu_is_guarded(tmp_path):
    """`@skipIf(ctx == "cpu", reason="NCCL only runs on GPU.")`: skipped whenever the suite runs on the CPU context,
    for a reason naming a GPU (`gpu-skip-reason-words`): guarded. A CPU skip for another reason, a skip on another
    comparison, and a reason given by a name stay reported."""
    from conftest import write
    write(tmp_path, "tests/test_comm.py", '''
        import unittest
        import torch
        import torch.distributed as dist
        import backend as F
        WHY = "gpu only"


        @unittest.skipIf(F._default_context_str == "cpu", reason="NCCL only runs on GPU.")
        def test_nccl():
            dist.init_process_group(backend="nccl")


        @unittest.skipIf("cpu" == F.ctx_str(), "gpu only test")
        def test_stream():
            torch.cuda.synchronize()


        @unittest.skipIf(F._default_context_str == "cpu", reason="too slow on the CPU")
        def test_slow():
            torch.cuda.synchronize()


        @unittest.skipIf(F._default_context_str != "cpu", reason="CPU-only GPU-free test")
        def test_other():
            torch.cuda.synchronize()


        @unittest.skipIf(F._default_context_str == "cpu", reason=WHY)
        def test_named():
            torch.cuda.synchronize()
        ''')
    got = [(line, col, rule, guarded) for _, line, col, rule, _, guarded in scan_findings(tmp_path, "--show-guarded")]
    assert got == [(10, 5, "TRN271", True), (15, 5, "TRN243", True), (20, 5, "TRN243", False),
                   (25, 5, "TRN243", False), (30, 5, "TRN243", False)]
