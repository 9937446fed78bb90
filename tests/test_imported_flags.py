"""A never-on-Neuron flag imported from another module guards the blocks it opens (project/flags.py)."""
import json

from conftest import run_cli

GUARD = '''import torch

_SUPPORTS_FLEX = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (7, 5)
USE_FUSED = True
'''
INIT = "from ._guard import _SUPPORTS_FLEX\n"  # the package re-exports the flag
ATTN = '''import torch
from . import _SUPPORTS_FLEX
from ._guard import USE_FUSED

if _SUPPORTS_FLEX:
    flex = torch.compile(torch.nn.attention.flex_attention.flex_attention)

if USE_FUSED:
    mask = torch.nn.attention.flex_attention.create_block_mask(None, 1, 1, 8, 8)


def pick():
    if _SUPPORTS_FLEX:
        device = "cuda"
    else:
        device = "cpu"
    return device
'''


def test_blocks_under_an_imported_cuda_flag_are_guarded(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "_guard.py").write_text(GUARD)
    (pkg / "attn.py").write_text(ATTN)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "pkg/attn.py"]
    assert got == [
        # the only torch.compile sits in the guarded block: the repository-level NEFF-cache advisory with it
        ("pkg/attn.py", 6, "TRN114", True, "neuron-guarded"),
        ("pkg/attn.py", 6, "TRN701", True, "neuron-guarded"),
        ("pkg/attn.py", 6, "TRN211", True, "neuron-guarded"),  # defined in _guard.py, re-exported by __init__
        ("pkg/attn.py", 9, "TRN211", False, None),  # USE_FUSED = True: a plain switch
        # the flag picks the device: its check is reported in _guard.py, where it is set; the arm is guarded
        ("pkg/attn.py", 14, "TRN242", True, "neuron-guarded"),
    ]


def test_the_guarded_blocks_kept_in_the_cache_follow_an_edit_of_the_flag(tmp_path):
    # A warm re-scan answers this step from the result cache; an edit of the module defining the flag
    # (not of the guarded file) must change the answer.
    pkg, cache = tmp_path / "pkg", tmp_path / "cache"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "_guard.py").write_text(GUARD)
    (pkg / "attn.py").write_text(ATTN)

    def line_6() -> list:
        proc = run_cli("scan", ".", "--format", "json", "--show-guarded", cwd=tmp_path,
                       env={"TRNREADY_CACHE_DIR": str(cache)})
        assert proc.returncode in (0, 1), proc.stderr
        return [(f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
                if f["path"] == "pkg/attn.py" and f["line"] == 6]

    guarded = [("TRN114", True), ("TRN701", True), ("TRN211", True)]
    assert line_6() == guarded  # cold
    assert line_6() == guarded  # warm, from the cache
    (pkg / "_guard.py").write_text(GUARD.replace("torch.cuda.is_available() and torch.cuda.get_device_capability() "
                                                 ">= (7, 5)", "True"))
    assert line_6() == [("TRN114", False), ("TRN701", False), ("TRN211", False)]


HELPERS = '''import torch
from unittest.mock import patch


def is_cuda_available():
    with patch.dict("os.environ", {"PYTORCH_NVML_BASED_CUDA_CHECK": "1"}):
        available = torch.cuda.is_available()
    return available


def is_big_model(n):
    big = n > 10
    return big
'''
MEMORY = '''import torch
from .helpers import is_cuda_available, is_big_model


def clear():
    if is_cuda_available():
        torch.cuda.empty_cache()


def other(n):
    if is_big_model(n):
        torch.cuda.empty_cache()
'''


def test_an_imported_check_function_guards_like_a_flag(tmp_path):
    """A project function that answers torch.cuda.is_available() (through a local name) is a never-on-Neuron
    check in the modules that import it; a function answering something else is not."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "memory.py").write_text(MEMORY)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("pkg/helpers.py", 7, 21, "TRN243", False),  # the check itself is where the fix goes
        ("pkg/memory.py", 7, 9, "TRN243", True),
        ("pkg/memory.py", 12, 9, "TRN243", False),  # is_big_model() says nothing about the machine
    ]


PRECISION = '''import torch


def is_fp16_enabled():
    fp16_enabled = torch.get_autocast_gpu_dtype() == torch.float16
    fp16_enabled = fp16_enabled and torch.is_autocast_enabled()
    return fp16_enabled


def is_enabled_later():
    ok = torch.is_autocast_enabled()
    ok = True
    return ok
'''
HEADS = '''import torch
from .precision import is_enabled_later, is_fp16_enabled


def forward(x):
    if is_fp16_enabled():
        with torch.cuda.amp.autocast(enabled=False):
            x = x.float()
    if is_enabled_later():
        with torch.cuda.amp.autocast(enabled=False):
            x = x.float()
    return x
'''


def test_a_check_whose_last_value_is_false_on_neuron_guards_its_callers(tmp_path):
    # openfold's is_fp16_enabled: the value returned is last set to `... and torch.is_autocast_enabled()`
    # (CUDA autocast only, false on Neuron); a later `ok = True` makes the other check a plain switch
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "precision.py").write_text(PRECISION)
    (pkg / "heads.py").write_text(HEADS)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    got = [(f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
           if f["path"] == "pkg/heads.py"]
    assert got == [(7, "TRN251", True), (10, "TRN251", False)]


GTP = '''try:
    import transformer_engine.pytorch as te

    HAVE_TE = True
except ImportError:
    HAVE_TE = False
USE_TE_LAYERS = True
'''
API = '''try:
    from pkg.gtp import HAVE_TE, USE_TE_LAYERS

    HAVE_GTP = HAVE_TE
    HAVE_LAYERS = USE_TE_LAYERS
except ImportError:
    HAVE_GTP = False
    HAVE_LAYERS = False
HAVE_BOTH = HAVE_GTP
'''
LOOP = '''try:
    from pkg.loop2 import LOOP_B

    LOOP_A = LOOP_B
except ImportError:
    LOOP_A = False
'''
LOOP2 = '''try:
    from pkg.loop import LOOP_A

    LOOP_B = LOOP_A
except ImportError:
    LOOP_B = False
'''
TEST_GTP = '''import pytest
import torch

from pkg.api import HAVE_GTP

if not HAVE_GTP:
    pytest.skip("needs TransformerEngine", allow_module_level=True)


def test_fused():
    x = torch.ones(2).cuda()
'''
TEST_LAYERS = '''import pytest
import torch

from pkg.api import HAVE_LAYERS, HAVE_BOTH
from pkg.loop import LOOP_A


@pytest.mark.skipif(not HAVE_LAYERS, reason="layers off")
def test_layers():
    x = torch.ones(2).cuda()


@pytest.mark.skipif(not HAVE_BOTH, reason="no TE")
def test_both():
    y = torch.ones(2).cuda()


@pytest.mark.skipif(not LOOP_A, reason="never set")
def test_loop():
    z = torch.ones(2).cuda()
'''


def test_a_flag_set_from_an_imported_flag_or_false_is_a_flag(tmp_path):
    """Megatron's gtp_api: `try: from .gtp import HAVE_TE; HAVE_GTP = HAVE_TE` / `except ImportError: HAVE_GTP =
    False`. HAVE_TE is set after a transformer_engine import, so on Neuron both values of HAVE_GTP are False and a
    test module skipped unless HAVE_GTP never runs there; the same chain through `HAVE_BOTH = HAVE_GTP`. A name
    copied from a plain switch (USE_TE_LAYERS = True) is no flag, nor are two names set from each other only."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "gtp.py").write_text(GTP)
    (pkg / "api.py").write_text(API)
    (pkg / "loop.py").write_text(LOOP)
    (pkg / "loop2.py").write_text(LOOP2)
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_gtp.py").write_text(TEST_GTP)
    (tests / "test_layers.py").write_text(TEST_LAYERS)
    got = _test_findings(tmp_path)
    cuda = ".cuda() moves a tensor or module to a GPU: `cuda`"
    assert got == [
        ("tests/test_gtp.py", 11, 9, "TRN241", cuda, True),
        ("tests/test_layers.py", 10, 9, "TRN241", cuda, False),  # USE_TE_LAYERS = True: a plain switch
        ("tests/test_layers.py", 15, 9, "TRN241", cuda, True),
        ("tests/test_layers.py", 20, 9, "TRN241", cuda, False),  # LOOP_A / LOOP_B only set from each other
    ]


UTILS = '''from importlib.metadata import version

from packaging.version import Version as PkgVersion

_te_version = None


def get_te_version():
    global _te_version
    try:
        import transformer_engine as te

        have_te = True
    except ImportError:
        have_te = False
    if _te_version is None:
        if have_te:
            _te_version = PkgVersion(getattr(te, "__version__", None) or version("transformer-engine"))
        else:
            _te_version = PkgVersion("0.0.0")
    return _te_version


def is_te_min_version(v, check_equality=True):
    if check_equality:
        return get_te_version() >= PkgVersion(v)
    return get_te_version() > PkgVersion(v)


def is_te_older_than(v):
    return get_te_version() < PkgVersion(v)


def get_fa_version():
    try:
        import flash_attn

        return PkgVersion(flash_attn.__version__)
    except ImportError:
        return PkgVersion("2.9.0")


def is_fa_min_version(v):
    return get_fa_version() >= PkgVersion(v)
'''
TEST_VERSIONS = '''import pytest
import torch

from pkg.utils import is_fa_min_version, is_te_min_version, is_te_older_than


@pytest.mark.skipif(not is_te_min_version("1.5.0"), reason="TE too old")
def test_new_te():
    x = torch.ones(2).cuda()


def test_layers():
    if is_te_min_version("1.10.0"):
        y = torch.ones(2).cuda()


@pytest.mark.skipif(not is_te_older_than("2.0"), reason="old TE only")
def test_old_te():
    z = torch.ones(2).cuda()


@pytest.mark.skipif(not is_fa_min_version("2.7.3"), reason="flash-attn too old")
def test_fa():
    w = torch.ones(2).cuda()
'''


def test_a_minimum_version_check_of_a_cuda_only_package_is_a_flag(tmp_path):
    """Megatron's is_te_min_version: `get_te_version() >= PkgVersion(v)`, where get_te_version imports
    transformer_engine and answers PkgVersion("0.0.0") without it. On Neuron the package is never installed, so
    a minimum-version check is False there and the test it skips never runs. `<` (is_te_older_than) is True with
    a zero version, and a getter answering another version when the package is missing (get_fa_version's
    "2.9.0") says nothing about the machine: those stay findings."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(UTILS)
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_versions.py").write_text(TEST_VERSIONS)
    got = _test_findings(tmp_path)
    cuda = ".cuda() moves a tensor or module to a GPU: `cuda`"
    assert got == [
        ("tests/test_versions.py", 9, 9, "TRN241", cuda, True),
        ("tests/test_versions.py", 14, 13, "TRN241", cuda, True),
        ("tests/test_versions.py", 19, 9, "TRN241", cuda, False),
        ("tests/test_versions.py", 24, 9, "TRN241", cuda, False),
    ]


def _test_findings(root) -> list:
    """(path, line, column, rule, message, guarded) of the findings under tests/ of a scan of root."""
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f["guarded"])
            for f in json.loads(proc.stdout)["findings"] if f["path"].startswith("tests/")]


CHECKS = '''import torch


def is_cuda_available():
    return torch.cuda.is_available()
'''
DEMO = '''import sys

import torch
from .checks import is_cuda_available


def demo():
    if is_cuda_available():
        torch.cuda.set_device(0)
    else:
        raise RuntimeError("GPU is required to run this demo.")


def optional():
    if is_cuda_available():
        torch.cuda.set_device(0)
    else:
        return None


def train():
    if not is_cuda_available():
        sys.exit("needs a GPU")
    else:
        torch.cuda.set_device(0)
'''


def test_an_imported_cuda_check_whose_other_arm_stops_the_program_guards_nothing(tmp_path):
    # The program raises or exits on Neuron: the CUDA arm is its only path and stays a finding; a `return` lets
    # the caller go on without it, which is a guard (the same rule as neuron-guarded's, across modules).
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "checks.py").write_text(CHECKS)
    (pkg / "demo.py").write_text(DEMO)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
           if f["path"] == "pkg/demo.py"]
    assert got == [(9, "TRN243", False), (16, "TRN243", True), (25, "TRN243", False)]


HYBRID = '''import torch


def hybrid_available() -> bool:
    if not torch.cuda.is_available():
        return False
    try:
        import cpu_grouped
        return cpu_grouped.cpu_kernels_available()
    except ImportError:
        return False
'''
PREFETCH_TESTS = '''import pytest
import torch

import pkg.engines.hybrid as hy

needs_stack = pytest.mark.skipif(not hy.hybrid_available(), reason="needs CUDA")


@needs_stack
def test_prefetch():
    x = torch.ones(2, device="cuda")
    assert x.sum() == 2


def test_other():
    if not hy.hybrid_available():
        pytest.skip("no stack")
    y = torch.ones(2).cuda()
    assert y.sum() == 2


def test_plain():
    z = torch.ones(2).cuda()
    assert z.sum() == 2
'''


def test_a_check_of_a_module_imported_whole_and_a_marker_bound_to_it_guard_their_tests(tmp_path):
    # experts4bit-qlora (fresh72): `needs_stack = pytest.mark.skipif(not hy.hybrid_available(), ...)` with
    # `import experts4bit_qlora.engines.hybrid as hy`, whose hybrid_available() returns False without CUDA
    (tmp_path / "pkg" / "engines").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "engines" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "engines" / "hybrid.py").write_text(HYBRID)
    (tmp_path / "tests" / "test_prefetch.py").write_text(PREFETCH_TESTS)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"] if f["path"].startswith("tests/")]
    assert got == [
        ("tests/test_prefetch.py", 11, "TRN242", "neuron-guarded"),  # @needs_stack
        ("tests/test_prefetch.py", 18, "TRN241", "neuron-guarded"),  # after `if not hy...(): pytest.skip()`
        ("tests/test_prefetch.py", 23, "TRN241", None),
    ]


ARGUMENTS = '''import argparse

import torch


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true", default=False)
    args = parser.parse_args()
    args.cuda = not args.no_cuda and torch.cuda.is_available()
    args.log_gpu = True
    return args
'''
RL_MAIN = '''import torch

from arguments import get_args

args = get_args()
model = torch.nn.Linear(2, 2)
if args.cuda:
    torch.cuda.manual_seed(1)
    model.cuda()
if args.log_gpu:
    model.cuda()


def evaluate(args):
    if args.cuda:
        model.cuda()
'''


def test_an_attribute_a_project_function_sets_from_a_cuda_check_guards_its_blocks(tmp_path):
    # pytorch-latent-i2a (blind75), after pytorch-a2c-ppo-acktr-gail: `args.cuda = not args.no_cuda and
    # torch.cuda.is_available()` in arguments.py's get_args(); main.py's `args = get_args()` then `if args.cuda:`.
    # An attribute set to anything else (`log_gpu`) and a parameter of the same name (`evaluate(args)`) guard nothing
    (tmp_path / "arguments.py").write_text(ARGUMENTS)
    (tmp_path / "main.py").write_text(RL_MAIN)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "main.py"]
    assert got == [
        ("main.py", 8, "TRN249", "neuron-guarded"),
        ("main.py", 9, "TRN241", "neuron-guarded"),
        ("main.py", 11, "TRN241", None),
        ("main.py", 16, "TRN241", None),
    ]
