"""neuron-guarded: code that runs only when a condition is false on a Neuron machine is marked guarded,
left out of the default report and never counted; the device-picking condition itself stays a finding."""
import json

from conftest import CONTEXT_FIXTURES, run_cli, scan_findings
from trnready import context

FIXTURE = CONTEXT_FIXTURES / "neuron_guarded"

# Every finding of the fixture with --show-guarded, (path, line, column, rule, message, guarded).
EXPECTED = [
    # cuda_branches.py
    ('cuda_branches.py', 5, 8, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`',True),  # check-without-placement: the branches place nothing
    ('cuda_branches.py', 6, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('cuda_branches.py', 9, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.empty_cache`', True),
    ('cuda_branches.py', 11, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),
    ('cuda_branches.py', 13, 9, 'TRN261', 'cuDNN / CUDA backend flag: `torch.backends.cudnn.benchmark`', True),
    ('cuda_branches.py', 14, 12, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`',True),  # check-without-placement: the branches place nothing
    ('cuda_branches.py', 17, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.reset_peak_memory_stats`', True),
    ('cuda_branches.py', 19, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    ('cuda_branches.py', 20, 8, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`', False),
    ('cuda_branches.py', 21, 17, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),
    # TRN352 is distributed-backend since session 31: no longer folded into the line's cuda-device finding
    ('cuda_branches.py', 21, 17, 'TRN352', 'nn.DataParallel (one process driving several GPUs): `torch.nn.DataParallel`',
     True),
    # (22, 5) torch.cuda.synchronize() again in the same function folds into (19, 9): one API, one function
    # match statement and try block (also checks that nothing in them breaks the walk)
    ('cuda_branches.py', 29, 16, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`',True),  # check-without-placement: the branches place nothing
    ('cuda_branches.py', 30, 17, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('cuda_branches.py', 32, 13, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    ('cuda_branches.py', 34, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),
    # early_exit.py
    ('early_exit.py', 5, 12, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', False),
    ('early_exit.py', 7, 5, 'TRN261', 'cuDNN / CUDA backend flag: `torch.backends.cuda.matmul`', True),
    # early_exit.py:8:5 TRN261 folds into line 7 (a run of neighbouring statements)
    ('early_exit.py', 12, 12, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', False),
    # after `if not torch.cuda.is_available(): raise RuntimeError(...)` the program has no other path: a finding
    ('early_exit.py', 14, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`', False),
    ('early_exit.py', 20, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`', False),
    # after `if not all(d.type == "cuda" for d in devices): return` only GPUs are left; `any(...)` is False too
    ('early_exit.py', 27, 19, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.get_device_capability`', True),
    ('early_exit.py', 32, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('early_exit.py', 33, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.empty_cache`', False),
    # flags.py
    ('flags.py', 3, 18, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', False),
    ('flags.py', 3, 48, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.get_device_capability`', True),
    # flags.py:5:13 TRN243 folds into line 3 (a run of neighbouring statements)
    ('flags.py', 11, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),  # q = q.cuda()
    ('flags.py', 13, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),  # k = k.cuda()
    ('flags.py', 15, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', False),  # v = v.cuda()
    ('flags.py', 17, 13, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', False),  # q = q.cuda()
    # optional_bnb.py: a CUDA-only package imported optionally is None on Neuron; torchao is not CUDA-only
    ('optional_bnb.py', 4, 5, 'TRN285', 'bitsandbytes (8-bit / 4-bit CUDA kernels): `bitsandbytes` (optional import: '
     'guarded by try/except or an availability check)', True),
    ('optional_bnb.py', 9, 5, 'TRN201', 'TorchAO (quantization and float8 training): `torchao` (optional import: '
     'guarded by try/except or an availability check)', False),
    ('optional_bnb.py', 17, 20, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),  # bnb is not None
    ('optional_bnb.py', 23, 12, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),  # after `if bnb is None: return`
    ('optional_bnb.py', 28, 16, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', False),  # torchao is not None
    # pick_device.py
    ('pick_device.py', 3, 10, 'TRN242', '"cuda" device string: `cuda`', False),
    # (3, 20) TRN243 folds into the device string at (3, 10): one cuda-device finding per line
    ('pick_device.py', 4, 4, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', False),
    # the if/else arm the check never takes on Neuron: the check on line 4 is the finding
    # (line 5, `dev = torch.device("cuda")` in the arm the check never takes on Neuron, is guarded and listed as a
    # place of the check's finding at line 4: the device value of the pick, postprocess_picks.py)
    ('pick_device.py', 11, 9, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),
    ('pick_device.py', 11, 21, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', False),
    # gpu_only_tests.py
    ('gpu_only_tests.py', 10, 22, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', True),
    ('gpu_only_tests.py', 12, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('gpu_only_tests.py', 15, 25, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', True),
    ('gpu_only_tests.py', 17, 9, 'TRN241', '.cuda() moves a tensor or module to a GPU: `cuda`', True),
    ('gpu_only_tests.py', 22, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`', True),
    ('gpu_only_tests.py', 27, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('gpu_only_tests.py', 32, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('gpu_only_tests.py', 37, 16, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', True),
    ('gpu_only_tests.py', 41, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('gpu_only_tests.py', 45, 12, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', True),
    ('gpu_only_tests.py', 47, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),
    ('gpu_only_tests.py', 52, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    ('gpu_only_tests.py', 57, 5, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    ('gpu_only_tests.py', 65, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    # module_skip_tests.py
    ('module_skip_tests.py', 4, 37, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`', True),
    ('module_skip_tests.py', 8, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.Stream`', True),
    # module_skip_tests.py:9:5 TRN243 folds into line 8 (a run of neighbouring statements)
    # neuron_arms.py: after a Neuron check by name (or torch.neuron.is_available()) the other arms are other
    # machines' code, and not a device pick: the "cuda" string in the else of a Neuron pick is never chosen there
    ('neuron_arms.py', 11, 13, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`', True),
    ('neuron_arms.py', 16, 59, 'TRN242', '"cuda" device string: `cuda`', True),
    ('neuron_arms.py', 18, 16, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.current_device`', True),
    # is_neuron_model() is not an availability check: both arms stay
    ('neuron_arms.py', 24, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', False),
    ('neuron_arms.py', 26, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.empty_cache`', False),
    # tpu_paths.py
    ('tpu_paths.py', 6, 5, 'TRN221', 'PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): `torch_xla.core.xla_model` (optional import: guarded by try/except or an availability check)', True),
    # (11, 9) TRN221 and the use torch_xla.sync() at (12, 9) fold into the file's first torch_xla import:
    # one finding per library rule per file
    ('tpu_paths.py', 14, 9, 'TRN243', 'torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`', True),]


def test_guarded_findings_are_marked_with_show_guarded():
    assert scan_findings(FIXTURE, "--show-guarded") == sorted(EXPECTED)


def test_default_report_leaves_guarded_findings_out():
    assert scan_findings(FIXTURE) == sorted(f[:5] + (False,) for f in EXPECTED if not f[5])


def test_device_choice_stays_a_finding():
    # `"cuda" if torch.cuda.is_available() else "cpu"` and its if/else form pick the CPU on Trainium; the if/else
    # form is reported at its check, and the arm the check never takes on Neuron is guarded: its device value
    # (`dev = torch.device("cuda")`) is listed as a place of the check's finding, where the pick is written
    kept = {(f[0], f[1], f[3]) for f in EXPECTED if not f[5]}
    assert {("pick_device.py", 3, "TRN242"), ("pick_device.py", 4, "TRN243")} <= kept
    assert ("pick_device.py", 5, "TRN242") not in kept
    proc = run_cli("scan", FIXTURE / "pick_device.py", "--format", "json", "--no-cache")
    check = [f for f in json.loads(proc.stdout)["findings"] if f["line"] == 4]
    assert [f["rule"] for f in check] == ["TRN243"]
    assert check[0]["occurrences"] == [{"line": 5, "column": 24, "rule": "TRN242"}]
    # but a CUDA-only operation in the same kind of expression never runs there
    assert ("pick_device.py", 11, 9, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", True) in EXPECTED


def test_guarded_findings_are_never_counted(tmp_path):
    proc = run_cli("scan", FIXTURE / "module_skip_tests.py", "--format", "json", "--no-cache", "--show-guarded",
                   "--fail-on", "change")
    report = json.loads(proc.stdout)
    # lines 8 and 9 are one run (one finding, line 9 in its occurrences)
    assert [f["guarded"] for f in report["findings"]] == [True, True]
    assert report["summary"]["guarded"] == 2 and report["summary"]["verdict"] == "ready"
    assert proc.returncode == 0
    text = run_cli("scan", FIXTURE / "module_skip_tests.py", "--no-cache", "--show-guarded").stdout
    assert "module_skip_tests.py:8:9 TRN243 [guarded: neuron-guarded] torch.cuda device, memory, stream or RNG API: " \
           "`torch.cuda.Stream`" in text
    assert "Guarded (not part of the port, not counted): 2" in text


def test_show_guarded_config_key(tmp_path):
    (tmp_path / "t.py").write_text((FIXTURE / "module_skip_tests.py").read_text())
    assert scan_findings(tmp_path) == []
    (tmp_path / "trnready.toml").write_text("show-guarded = true\n")
    assert [f[1] for f in scan_findings(tmp_path)] == [4, 8]
    (tmp_path / "trnready.toml").write_text('show-guarded = "yes"\n')
    proc = run_cli("scan", tmp_path, "--no-cache")
    assert proc.returncode == 2 and "key 'show-guarded'" in proc.stderr


def test_registered_as_a_guard():
    p = context.get("neuron-guarded")
    assert p.effect == "guard" and "device" in p.kinds


COUNTS = '''import torch


def default_device(device=None):
    if device is None:
        if torch.cuda.device_count():
            device = "cuda"
        else:
            device = "cpu"
    return torch.zeros(1, device=device)


def init_distributed(rank):
    device_count = torch.cuda.device_count()
    if device_count > 0:
        torch.cuda.set_device(rank % device_count)


def user_switch(use_gpu):
    if use_gpu:
        device = "cuda"
    else:
        device = "cpu"
    return torch.zeros(1, device=device)
'''


def test_a_device_count_check_is_the_finding_and_its_arm_is_guarded(tmp_path):
    (tmp_path / "counts.py").write_text(COUNTS)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [
        # if torch.cuda.device_count(): picks the device (0 on Neuron); the "cuda" of the arm it never takes there
        # is guarded and listed at the check (line 7 is a place of this finding)
        (6, "TRN243", False),
        (14, "TRN243", False),  # device_count = torch.cuda.device_count()
        (16, "TRN243", True),  # under `if device_count > 0:` (a name bound only to the count)
        # a user switch may be true on Neuron: the device string stays
        (21, "TRN242", False),
    ]


def test_a_value_that_is_none_without_cuda_guards_its_is_not_none_check(tmp_path):
    # `state = torch.cuda.get_rng_state() if torch.cuda.is_available() else None`: None on Neuron, so the block
    # under `if state is not None:` never runs there; a flag that may be False is not None and guards nothing
    (tmp_path / "rng.py").write_text('''import torch


def sample(model):
    cuda_rng_state = None
    try:
        cuda_rng_state = torch.cuda.get_rng_state() if torch.cuda.is_available() else None
    except Exception:
        pass
    out = model()
    if cuda_rng_state is not None:
        torch.cuda.set_rng_state(cuda_rng_state)
    return out


def other(model):
    flag = torch.cuda.is_available() and model.big
    if flag is not None:
        torch.cuda.synchronize()
''')
    got = sorted((f[1], f[4].rsplit("`", 2)[-2], f[5]) for f in scan_findings(tmp_path, "--show-guarded"))
    # (session 56: the check on line 7 only saves the GPU's RNG state, against None: it picks nothing and is a
    # guarded place of the state's finding, `check-without-placement`)
    assert got == [(7, "torch.cuda.get_rng_state", True),
                   (12, "torch.cuda.set_rng_state", True), (17, "torch.cuda.is_available", False),
                   (19, "torch.cuda.synchronize", False)]


def test_a_name_set_only_in_a_cuda_arm_and_none_before_guards_its_is_not_none_check(tmp_path):
    # Contrastive_OOD's metric callback (blind84): `res = None`, `if pl_module.device == 'cuda': res =
    # faiss.StandardGpuResources()`, then `if res is not None:` around each GPU index. Neuron never takes the arm,
    # so `res` stays None there. A name also bound to something else in a reached arm guards nothing.
    (tmp_path / "metrics.py").write_text('''import faiss
import torch


def evaluate(pl_module, features, gpu_id):
    res = None
    if pl_module.device == 'cuda': res = faiss.StandardGpuResources()
    index = faiss.IndexFlatL2(features.shape[-1])
    if res is not None: index = faiss.index_cpu_to_gpu(res, 0, index)
    other = None
    if pl_module.device == 'cuda':
        other = faiss.StandardGpuResources()
    elif gpu_id >= 0:
        other = gpu_id
    if other is not None:
        torch.cuda.synchronize()
    return index
''')
    got = sorted((f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded"))
    assert got == [(7, "TRN289", True), (16, "TRN243", False)]  # line 9 and 12: places of the line 7 finding


def _project_findings(tmp_path, files: dict) -> list:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    return [(f["path"], f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]]


def test_a_flag_set_after_a_cuda_only_import_in_a_try_is_false_on_neuron(tmp_path):
    # The import raises on a Trainium host before `HAVE_FLA = True` runs: only the handler binds the flag, in this
    # module and in the tests that import it.
    found = _project_findings(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": '''import torch

try:
    from fla.ops import chunk_rule
    HAVE_FLA = True
except ImportError:
    chunk_rule = None
    HAVE_FLA = False


def step(x):
    if HAVE_FLA:
        torch.cuda.synchronize()
    return x
''',
        # a package the module requires (it raises without it): the block its flag gates stays a finding
        "pkg/kernel.py": '''import torch

try:
    from cupy.cuda import function
    HAVE_CUPY = True
except ImportError:
    HAVE_CUPY = False

if HAVE_CUPY:
    torch.cuda.synchronize()


def build():
    if not HAVE_CUPY:
        raise ImportError("this model needs cupy")
''',
        # a gate that fails without the package: what follows is the only path, which the port must make work
        "pkg/gated.py": '''import torch
from pkg.ops import HAVE_FLA


def run(x):
    if not HAVE_FLA:
        raise ValueError("needs FLA")
    return x.cuda()
''',
        "tests/test_ops.py": '''import pytest
import torch
from pkg.ops import HAVE_FLA


@pytest.mark.skipif(not HAVE_FLA, reason="FLA is not installed")
def test_rule():
    x = torch.ones(2).cuda()
    assert x.sum() == 2
''',
        "tests/test_module_skip.py": '''import pytest
import torch
from pkg.ops import HAVE_FLA

if not HAVE_FLA:
    pytest.skip("FLA is not installed", allow_module_level=True)


def test_rule():
    torch.cuda.synchronize()
''',
        "tests/test_marked.py": '''import unittest
import pytest
import torch
from pkg.ops import HAVE_FLA

pytestmark = [pytest.mark.internal, pytest.mark.skipif(not HAVE_FLA, reason="needs FLA")]


def test_rule():
    torch.cuda.synchronize()
''',
        "tests/test_unless.py": '''import unittest
import torch
from pkg.ops import HAVE_FLA


@unittest.skipUnless(HAVE_FLA, "needs FLA")
class TestRule(unittest.TestCase):
    def test_rule(self):
        torch.cuda.synchronize()


def test_unguarded():
    torch.cuda.synchronize()
''',
        # a package that installs on a Trainium host: its flag says nothing about the device
        "pkg/fit.py": '''import torch

try:
    import scipy
    HAVE_SCIPY = True
except ImportError:
    HAVE_SCIPY = False


def fit(x):
    if HAVE_SCIPY:
        torch.cuda.synchronize()
    return x
''',
    })
    assert ("pkg/ops.py", 13, "TRN243", True) in found
    assert ("tests/test_ops.py", 8, "TRN241", True) in found
    assert ("pkg/fit.py", 12, "TRN243", False) in found
    assert ("tests/test_module_skip.py", 10, "TRN243", True) in found
    assert ("tests/test_marked.py", 10, "TRN243", True) in found
    assert ("tests/test_unless.py", 9, "TRN243", True) in found
    assert ("tests/test_unless.py", 13, "TRN243", False) in found
    assert ("pkg/gated.py", 8, "TRN241", False) in found
    assert ("pkg/kernel.py", 10, "TRN243", False) in found


def test_which_arms_end_the_program():
    # a raise or an exit ends the program; a return, a test skip or an ImportError lets something go on
    import ast

    from trnready.context.neuron_guarded import _TPU, _cuda_test, _fails

    def arm(src):
        return ast.parse(src).body

    assert _fails(arm('raise RuntimeError("GPU is required")'))
    assert _fails(arm("raise NotImplementedError"))
    assert _fails(arm('print("no GPU")\nsys.exit(1)'))
    assert _fails(arm("exit()")) and _fails(arm("os._exit(1)")) and _fails(arm("quit()"))
    assert not _fails(arm("return"))
    assert not _fails(arm("raise unittest.SkipTest('needs CUDA')"))
    assert not _fails(arm("pytest.skip('needs CUDA')"))
    assert not _fails(arm("raise ImportError('needs CUDA')"))
    assert not _fails(arm("raise"))  # a re-raise in a handler
    assert not _fails([])

    def test(src):
        return _cuda_test(ast.parse(src, mode="eval").body, _TPU | {"mps"})

    assert test("torch.cuda.is_available()") and test("torch.cuda.is_available() and CUDA_HOME is not None")
    assert test("not args.use_gpu") and test('device.type == "cuda"') and test('backend == "nccl"')
    assert not test("torch.backends.mps.is_available()") and not test("is_torch_xla_available()")
    assert not test("_SUPPORTS_FLEX")


REQUIRED_IN_A_BRANCH = '''import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--fused", action="store_true")
args = parser.parse_args()
if args.fused:
    if not torch.cuda.is_available():
        raise RuntimeError("the fused kernels need a GPU")
    from flash_attn import flash_attn_func
    torch.cuda.set_device(0)
    out = flash_attn_func(torch.ones(1), torch.ones(1), torch.ones(1))
if args.fused:
    if not torch.cuda.is_available():
        return_early = True
        raise ImportError("optional fused path")
    from flash_attn import flash_attn_varlen_func
'''


def test_a_failing_requirement_in_a_branch_keeps_the_kernel_code_after_it(tmp_path):
    # `if not torch.cuda.is_available(): raise RuntimeError(...)` inside an opt-in branch: on Neuron the feature
    # stops there, so the device plumbing after it is guarded but the CUDA library it needs (flash-attn) stays the
    # port item, as for a requirement check. Look-alike: `raise ImportError` (an optional module saying "not
    # here", its importer goes on without it) still guards everything after it
    (tmp_path / "train.py").write_text(REQUIRED_IN_A_BRANCH)
    found = {(p, ln, rule, g) for p, ln, _c, rule, _m, g in scan_findings(tmp_path, "--show-guarded", "--no-config")}
    assert ("train.py", 11, "TRN281", False) in found
    assert ("train.py", 12, "TRN243", True) in found
    assert ("train.py", 18, "TRN281", True) in found


def test_accelerator_switch_calls_by_name():
    """`is_xla()`, `use_tpu()`: a call with no argument asking whether the run uses an accelerator a Trainium host
    never has; a name that merely holds the word (`xla_device()`, `is_xla_tensor(t)` is judged by its caller) is
    not such a switch."""
    from trnready.context.neuron_guarded import _TPU, _accelerator_switch

    words = _TPU | {"xla", "mps"}
    assert _accelerator_switch("is_xla", words) and _accelerator_switch("use_tpu", words)
    assert _accelerator_switch("on_mps", words) and _accelerator_switch("isXla", words)
    assert not _accelerator_switch("xla_device", words) and not _accelerator_switch("is_cuda", words)
    assert not _accelerator_switch("is_xla", _TPU)  # "xla" counts only where xla-switch-words are read


def test_tensor_type_picked_by_placement_is_a_finding(tmp_path):
    # `torch.cuda.FloatTensor if mu.is_cuda else torch.FloatTensor`: on Neuron the CPU type builds tensors that
    # meet device tensors, and no availability check is reported for a tensor's own test, so the CUDA type is
    # the finding; the same pick by torch.cuda.is_available() keeps its check as the finding
    found = _found(tmp_path, "noise.py",
                   "import torch\n"
                   "def noise(mu):\n"
                   "    Tensor = torch.cuda.FloatTensor if mu.is_cuda else torch.FloatTensor\n"
                   "    return mu + Tensor(mu.size()).normal_()\n"
                   "def half(x):\n"
                   "    return x.type(torch.cuda.HalfTensor) if x.is_cuda else x.half()\n")
    assert (3, "TRN243", False) in found
    assert (6, "TRN243", True) in found


def test_a_gpu_option_that_builds_the_device_is_the_device_pick(tmp_path):
    # `args.device == "gpu"` compares a user's option ("gpu" is no torch device type): nothing makes it false on
    # Trainium, the port maps the option to the Neuron device, so the arm (its device pick and its other CUDA calls)
    # is to port, whether or not the other arm goes on; a test of a tensor's device type is a CUDA check as before
    found = _found(tmp_path, "train.py", """import os
import torch
def pick(args):
    if args.device == 'gpu':
        device = torch.device('cuda')
        torch.cuda.synchronize()
    else:
        device = torch.device('cpu')
    return device
def pick2(device='cpu'):
    if device in ('gpu', 'GPU'):
        device = 'cuda'
    return torch.zeros(2, device=device)
def move(x, y):
    if x.device.type == 'cuda':
        y = y.to('cuda')
    return y
if os.environ.get("PREPROCESS_DEVICE") == "gpu":
    PREPROCESS = torch.device("cuda:0")
""")
    assert (5, "TRN242", False) in found
    assert (6, "TRN243", False) in found
    assert (12, "TRN242", False) in found
    assert (16, "TRN242", True) in found
    assert (19, "TRN242", False) in found  # an environment variable is the user's option too


def test_the_body_of_a_loop_over_the_cuda_devices_never_runs(tmp_path):
    # range(torch.cuda.device_count()) is empty on Neuron: the count is the finding, the per-GPU body is guarded;
    # a range starting elsewhere, or over another count, is left alone
    found = _found(tmp_path, "info.py", """import torch
for i in range(torch.cuda.device_count()):
    print(torch.cuda.get_device_name(i))
for i in range(0, torch.cuda.device_count()):
    torch.cuda.set_device(i)
for i in range(1, torch.cuda.device_count()):
    torch.cuda.synchronize(i)
""")
    assert (2, "TRN243", False) in found and (3, "TRN243", True) in found
    assert (5, "TRN243", True) in found and (7, "TRN243", False) in found


def _found(tmp_path, name: str, code: str) -> list:
    """(line, rule, guarded) of every finding of one file written to tmp_path, guarded ones listed."""
    (tmp_path / name).write_text(code)
    return [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]


def test_a_gpu_flag_the_program_derives_stays_a_cuda_check(tmp_path):
    # ArcNerf: `self.device = 'gpu'` only after torch.cuda.is_available(), and helpers handed that flag as a plain
    # parameter: "gpu" there is the program's own answer to a CUDA check, false on Neuron, so the arms stay guarded
    found = _found(tmp_path, "trainer.py", """import torch
class Trainer:
    def __init__(self):
        self.device = 'cpu'
        if torch.cuda.is_available():
            self.device = 'gpu'
    def empty(self):
        if self.device == 'gpu':
            torch.cuda.empty_cache()
def feed(inputs, device):
    if device == 'gpu':
        inputs = inputs.cuda()
    return inputs
""")
    assert (5, "TRN243", False) in found
    assert (9, "TRN243", True) in found and (12, "TRN241", True) in found


MATCH_CASES = '''import torch


def sync(dev):
    match dev.type:
        case "cuda":
            torch.cuda.synchronize()
        case "xpu":
            torch.xpu.synchronize()
        case _:
            pass


def activities(dev):
    acts = [torch.profiler.ProfilerActivity.CPU]
    match dev.type:
        case "cuda" | "gpu":
            acts.append(torch.profiler.ProfilerActivity.CUDA)
    return acts


def pick(name):
    match name:
        case "fast":
            return torch.device("cuda")
    return torch.device("cpu")
'''


def test_a_match_case_on_the_cuda_device_type_is_an_arm_neuron_never_takes(tmp_path):
    # ENN-PyTorch (fresh73): `match dev.type: case "cuda": torch.cuda.synchronize()` is `if dev.type == "cuda":`;
    # a case on a user's option (`case "fast":`) guards nothing
    (tmp_path / "sync.py").write_text(MATCH_CASES)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(7, "TRN243", True), (18, "TRN244", True), (25, "TRN242", False)]


BOOL_FLAG = '''import torch


def train(args):
    use_amp = bool(args.amp and torch.cuda.is_available())
    if use_amp:
        scaler = torch.amp.GradScaler("cuda")
        return scaler
    return None
'''


def test_a_flag_wrapped_in_bool_is_the_check_it_wraps(tmp_path):
    # Cmamba_reconstruct (blind73): `use_amp = bool(args.amp and torch.cuda.is_available())`, then `if use_amp:`
    (tmp_path / "train.py").write_text(BOOL_FLAG)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(5, "TRN243", False), (7, "TRN252", True)]


DEVICE_DISPATCH = '''import os

import torch
from torch.backends import cudnn


def setup_device(device_type, rank=0):
    if device_type == "cpu":
        device = torch.device("cpu")
    elif device_type == "mps":
        device = torch.device("mps")
    elif device_type == "cuda":
        if torch.cuda.is_available():
            cudnn.benchmark = True
            torch.cuda.set_device(rank)
            device = torch.device(rank)
        else:
            raise RuntimeError("CUDA not available")
    else:
        raise ValueError(f"Unsupported device type: {device_type}")
    return device


def pick(device_type):
    if device_type == "cpu":
        return torch.device("cpu")
    elif device_type == "cuda":
        torch.cuda.empty_cache()
    return torch.device(device_type)
'''


def test_the_cuda_arm_of_a_device_dispatch_that_rejects_other_devices_is_the_port(tmp_path):
    # PyTorch-Project-Template (blind74): `if device_type == "cpu": ... elif ... == "cuda": ... else: raise`: a
    # Neuron device takes no arm but the error, so the CUDA arm (and the availability check inside it) is what the
    # port copies into a Neuron arm; a dispatch that falls through to a generic device (`pick`) still guards its arm
    (tmp_path / "dev.py").write_text(DEVICE_DISPATCH)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    # the dispatch itself is a finding (TRN353 at its "cuda", line 12), and the arm's cuda-device findings its places
    assert found == [(12, "TRN353", False), (14, "TRN261", False), (28, "TRN243", True)]


def test_a_default_device_set_in_the_arms_of_a_check_is_a_pick(tmp_path):
    # torch_DE_solver (blind80): `if torch.cuda.is_available(): torch.set_default_device('cuda')` / `else:
    # torch.set_default_device('cpu')`, also written `return torch.set_default_device(...)`. The check is reported and
    # the CUDA arm's call is a place of it, as an assignment `device = "cuda"` there would be; the call under a
    # check whose other arm also names CUDA stays guarded on its own.
    import json

    from conftest import run_cli

    (tmp_path / "device.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def setup():\n"
        "    if torch.cuda.is_available():\n"
        "        torch.set_default_device('cuda')\n"
        "    else:\n"
        "        torch.set_default_device('cpu')\n"
        "\n"
        "\n"
        "def setup_returning():\n"
        "    if torch.cuda.is_available():\n"
        "        return torch.set_default_device('cuda:0')\n"
        "    return torch.set_default_device('cpu')\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--select", "TRN242,TRN243")
    got = [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences") or []])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(5, "TRN243", [6]), (12, "TRN243", [13])]


def test_a_device_name_asked_for_with_an_availability_check_is_a_pick(tmp_path):
    # torch_DE_solver's `solver_device` (blind80): `if device in ['cuda', 'gpu'] and torch.cuda.is_available():`
    # then `set_default_device('cuda')`, else the CPU. The name compared is what the caller asks for; the availability
    # check is what picks the CPU on Neuron, so it is reported with the CUDA arm's value as its place. The same
    # comparison before a check whose arm picks nothing (`torch.cuda.synchronize()`) still guards the check and arm.
    import json

    from conftest import run_cli

    (tmp_path / "device.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def solver_device(device: str):\n"
        "    if device in ['cuda', 'gpu'] and torch.cuda.is_available():\n"
        "        return torch.set_default_device('cuda')\n"
        "    else:\n"
        "        return torch.set_default_device('cpu')\n"
        "\n"
        "\n"
        "def get_device(name):\n"
        "    if name == 'cuda' and torch.cuda.device_count() > 0:\n"
        "        return torch.device('cuda')\n"
        "    return torch.device('cpu')\n"
        "\n"
        "\n"
        "def sync(device):\n"
        "    if device == 'cuda' and torch.cuda.is_available():\n"
        "        torch.cuda.synchronize()\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--select", "TRN242,TRN243")
    got = [(f["line"], f["column"], f["rule"], [o["line"] for o in f.get("occurrences") or []])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(5, 38, "TRN243", [6]), (12, 27, "TRN243", [13])]


def test_a_cuda_request_turned_into_the_cpu_when_cuda_is_missing_is_a_pick(tmp_path):
    # table-diffusion (blind82) and matsci-gnn-pinn (blind73): `if device == 'cuda' and not
    # torch.cuda.is_available(): device = 'cpu'`. A caller asking for CUDA (here the default) gets the CPU on a
    # Trainium host, so the availability check is the pick and stays reported. A body that does something else
    # (`raise`, a warning only) or sets another name leaves the check guarded as before.
    import json

    from conftest import run_cli

    (tmp_path / "device.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def distances(rows, device='cuda'):\n"
        "    if device == 'cuda' and not torch.cuda.is_available():\n"
        "        print('CUDA not available, falling back to CPU')\n"
        "        device = 'cpu'\n"
        "    return torch.as_tensor(rows, device=torch.device(device))\n"
        "\n"
        "\n"
        "def solver_device(device):\n"
        "    if device in ['cuda', 'gpu'] and not torch.cuda.is_available():\n"
        "        return torch.set_default_device('cpu')\n"
        "    return torch.set_default_device(device)\n"
        "\n"
        "\n"
        "def strict(device):\n"
        "    if device == 'cuda' and not torch.cuda.is_available():\n"
        "        raise RuntimeError('CUDA requested but not available')\n"
        "    return torch.device(device)\n"
        "\n"
        "\n"
        "def other_name(device, backend):\n"
        "    if device == 'cuda' and not torch.cuda.is_available():\n"
        "        backend = 'cpu'\n"
        "    return backend\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--select", "TRN243")
    got = [(f["line"], f["column"], f["rule"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(5, 33, "TRN243"), (12, 42, "TRN243")]


def test_a_skip_condition_naming_the_check_without_calling_it_skips_without_cuda(tmp_path):
    # nerfacc's tests (fresh83): `@pytest.mark.skipif(not torch.cuda.is_available, reason="No CUDA device")`, the call
    # left out. The test means the availability check; its CUDA device string (used only by such tests) and the
    # check are guarded as for the call. A skip on something else keeps the test reported.
    import json

    from conftest import run_cli

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_grid.py").write_text(
        "import pytest\n"
        "import torch\n"
        "\n"
        "device = 'cuda:0'\n"
        "\n"
        "\n"
        "@pytest.mark.skipif(not torch.cuda.is_available, reason='No CUDA device')\n"
        "def test_traverse_grids():\n"
        "    assert torch.rand(4, 3, device=device).shape[0] == 4\n"
        "\n"
        "\n"
        "@pytest.mark.skipif(not pytest.config, reason='no config')\n"
        "def test_other():\n"
        "    assert torch.ones(1, device='cuda').sum() == 1\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded", "--select", "TRN242,TRN243")
    got = [(f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(4, "TRN242", "neuron-guarded"), (7, "TRN243", "neuron-guarded"), (14, "TRN242", "")]
