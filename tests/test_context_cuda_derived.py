"""neuron-guarded, CUDA-derived values (trnready/context/_cuda_derived.py): a probe of torch's CUDA build, a device
count kept next to small literals and a flag set True only in an arm Neuron never takes guard what they gate; the
count, and tests it leaves undecided, stay findings."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

FIXTURE = CONTEXT_FIXTURES / "cuda_derived"


def _found(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by", ""))
            for f in json.loads(proc.stdout)["findings"]]


def test_build_probe_of_torch_c():
    assert _found(FIXTURE / "build_probe.py") == [
        ("build_probe.py", 6, 54, "TRN243", "neuron-guarded"),  # the right operand of `and` after the probe
        ("build_probe.py", 7, 14, "TRN243", "neuron-guarded"),  # hasattr(_C, "_cuda_setRNGState"), via `from torch import _C`
        ("build_probe.py", 8, 13, "TRN243", "neuron-guarded"),  # the private RNG entry point, under the same probe
        ("build_probe.py", 10, 9, "TRN243", ""),  # the else arm runs on Neuron
        ("build_probe.py", 15, 9, "TRN243", "neuron-guarded"),  # hasattr(torch._C, "_cuda_getDeviceCount")
        ("build_probe.py", 17, 9, "TRN243", ""),  # `_get_tracing_state` is no CUDA-build attribute
        ("build_probe.py", 19, 9, "TRN243", ""),  # `torch._cuda_getDeviceCount` is not torch._C's
    ]


def test_device_count_next_to_literals():
    assert _found(FIXTURE / "gpu_count.py") == [
        ("gpu_count.py", 8, 17, "TRN243", ""),  # the count itself is the finding
        ("gpu_count.py", 12, 9, "TRN249", ""),  # `n_gpu > 0`: the distributed arm sets 1
        ("gpu_count.py", 16, 17, "TRN352", "neuron-guarded"),  # `n_gpu > 1`: at most 1 on Neuron
        ("gpu_count.py", 20, 9, "TRN243", "neuron-guarded"),  # the else of `n_gpu <= 1`
        ("gpu_count.py", 25, 18, "TRN243", ""),
        ("gpu_count.py", 27, 17, "TRN352", "neuron-guarded"),  # args.n_gpu = torch.cuda.device_count()
        ("gpu_count.py", 36, 17, "TRN352", ""),  # opts.world is also a command-line option
        ("gpu_count.py", 37, 18, "TRN243", ""),
        ("gpu_count.py", 42, 15, "TRN243", ""),
        ("gpu_count.py", 45, 17, "TRN352", ""),  # `workers += 2`: not a count any more
    ]


def test_flag_true_only_in_an_arm_neuron_skips():
    assert _found(FIXTURE / "arm_flag.py") == [
        ("arm_flag.py", 11, 17, "TRN241", "neuron-guarded"),  # self.host_cache is True only when frames.is_cuda
        ("arm_flag.py", 12, 13, "TRN243", "neuron-guarded"),
        ("arm_flag.py", 26, 13, "TRN243", ""),  # self.on_gpu follows a parameter
    ]


def test_gpu_rerun_blocks_and_switch_helpers_of_tests():
    assert _found(FIXTURE / "tests") == [
        ("test_gpu_variants.py", 9, 13, "TRN241", "guarded-switch"),  # cuda=True only under the check
        ("test_gpu_variants.py", 16, 13, "TRN241", ""),  # on_gpu=True outside any check
        ("test_gpu_variants.py", 26, 8, "TRN243", "check-without-placement"),  # `# test on gpu`
        ("test_gpu_variants.py", 27, 17, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 29, 16, "TRN354", "neuron-guarded"),  # `assert out.is_cuda` in the GPU rerun
        ("test_gpu_variants.py", 34, 8, "TRN243", "check-without-placement"),  # model built anew after the block
        ("test_gpu_variants.py", 36, 9, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 45, 8, "TRN243", "test-cpu-fallback"),  # adds a CUDA case to a test (policy s22)
        ("test_gpu_variants.py", 46, 9, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 53, 8, "TRN243", "test-cpu-fallback"),  # the block returns; a test (policy s22)
        ("test_gpu_variants.py", 54, 17, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 62, 8, "TRN243", "check-without-placement"),  # items moved, never read after
        ("test_gpu_variants.py", 64, 26, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 65, 16, "TRN241", "neuron-guarded"),
        ("test_gpu_variants.py", 70, 8, "TRN243", "test-cpu-fallback"),  # read after the block, but a test (policy s22)
        ("test_gpu_variants.py", 71, 22, "TRN241", "neuron-guarded"),
    ]


def test_switch_helper_outside_tests_is_left_alone(tmp_path):
    src = (FIXTURE / "tests" / "test_gpu_variants.py").read_text()
    (tmp_path / "helpers.py").write_text(src)
    got = _found(tmp_path / "helpers.py")
    assert ("helpers.py", 9, 13, "TRN241", "") in got
    assert ("helpers.py", 26, 8, "TRN243", "") in got


def test_a_flag_forced_off_in_the_arm_neuron_takes():
    # awesome-semantic-segmentation (after maskrcnn-benchmark): `args.distributed = num_gpus > 1`, then the arm a
    # Neuron host takes sets it False before anything reads it, so `if args.distributed:` never runs there. A read in
    # between (`print(opts.parallel)`) keeps the earlier value.
    assert _found(FIXTURE / "forced_off.py") == [
        ("forced_off.py", 11, 26, "TRN273", "neuron-guarded"),
        ("forced_off.py", 17, 29, "TRN243", ""),
        ("forced_off.py", 29, 8, "TRN243", ""),
        ("forced_off.py", 34, 17, "TRN241", ""),
        # an `if` with no `else` that Neuron always enters forces the flag off as well; its check picks nothing
        ("forced_off.py", 41, 12, "TRN243", "check-without-placement"),
        ("forced_off.py", 44, 9, "TRN243", "neuron-guarded"),
        # look-alike: a body Neuron never enters leaves the earlier value, so the flag's arm stays a finding
        ("forced_off.py", 51, 8, "TRN243", "check-without-placement"),
        ("forced_off.py", 54, 9, "TRN243", ""),
    ]


def test_a_flag_set_otherwise_only_deep_in_an_arm_neuron_skips():
    got = [(line, rule, by) for _, line, _, rule, by in _found(FIXTURE / "nested_arm_flag.py")]
    # args.distributed is False unless set under `WORLD_SIZE` inside the CUDA arm: the apex block never runs there
    assert (23, "TRN283", "neuron-guarded") in got
    # args.sync is set in an arm Neuron takes (a plain size test): its block stays a finding
    assert (26, "TRN243", "") in got
