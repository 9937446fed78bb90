"""Functions that cannot return without CUDA, and test modules that call one as pytest imports them
(context/_needs_cuda.py, resolved across modules by project/flags.py)."""
import ast
import json

from conftest import run_cli

from trnready.catalogue import load_catalogue
from trnready.context._needs_cuda import cuda_functions
from trnready.project.kept_answers import import_time_flags

DEVICES = '''import torch


def device_cc():
    return torch.cuda.get_device_capability(torch.cuda.current_device())


def safe_cc():
    if torch.cuda.is_available():
        return torch.cuda.get_device_capability()
    return (0, 0)
'''
SUPPORT = '''from .devices import device_cc, safe_cc

_SUPPORT = None


def _compute():
    """The answer, computed once."""
    if device_cc() >= (9, 0):
        return True, ""
    return False, "needs sm90"


def check_support():
    global _SUPPORT
    if _SUPPORT is None:
        _SUPPORT = _compute()
    return _SUPPORT


def is_fast_available(return_reason=False):
    if return_reason:
        return check_support()
    return check_support()[0]


def is_safe_available():
    return safe_cc() >= (9, 0)


def half_checked(flag):
    if flag:
        return device_cc()
    return None
'''
INIT = "from .support import is_fast_available, is_safe_available\n"
# a test module reading the answer at import, through the package imported whole
TEST_FAST = '''import pytest
import torch
import pkg as p

fast_available, reason = p.is_fast_available(return_reason=True)
requires_fast = pytest.mark.skipif(not fast_available, reason=reason)


def _on_gpu(n):
    return torch.ones(n, device="cuda")


@pytest.mark.skipif(not fast_available, reason=reason)
def test_fast():
    x = _on_gpu(2)
    assert x.sum() == 2


@requires_fast
class TestFast:
    def test_sync(self):
        torch.cuda.synchronize()


def test_unmarked():
    assert torch.ones(2, device="cuda").sum() == 2
'''
# the same with a check that answers without CUDA: its tests are collected (and skipped by their marks alone)
TEST_SAFE = '''import pytest
import torch
from pkg import is_safe_available

safe = is_safe_available()


@pytest.mark.skipif(False, reason="runs")
def test_safe():
    x = torch.ones(2, device="cuda")
    assert x.sum() == 2
'''
# a library module calling it at import: the import fails on Neuron, which is what the port changes
LIBRARY = '''import torch
from pkg.support import is_fast_available

FAST = is_fast_available()
skip = None
x = torch.ones(2, device="cuda")
'''
# a test module calling it only inside a test: the other tests are collected
TEST_LATE = '''import pytest
import torch
from pkg.support import is_fast_available


@pytest.mark.skipif(False, reason="runs")
def test_late():
    assert is_fast_available() or torch.ones(2, device="cuda").sum() == 2
'''


QUERIES = load_catalogue().context_values["cuda-device-queries"]


def _names(src, imported):
    return cuda_functions(ast.parse(src), imported, QUERIES)


def test_functions_reaching_a_device_query_on_every_path():
    assert _names(DEVICES, set()) == ["!device_cc"]  # safe_cc answers without CUDA
    # through an imported function: needs CUDA when that one does (the link step tells)
    assert _names(SUPPORT, {"device_cc", "safe_cc"}) == [
        ["!_compute", "device_cc"], ["!check_support", "device_cc"], ["!is_fast_available", "device_cc"],
        ["!is_safe_available", "safe_cc"]]  # half_checked returns None when not flag


def test_blocks_a_kept_answer_opens():
    got = import_time_flags(ast.parse(TEST_FAST), {"p"})
    assert got == [
        [13, 16, "!p.is_fast_available", False],  # skipif(not fast_available)
        [19, 22, "!p.is_fast_available", False],  # @requires_fast
        [6, 6, "!p.is_fast_available", False],  # the mark, read only by what it skips
        [9, 10, "!p.is_fast_available", False],  # _on_gpu, called only in a skipped test
    ]
    # a builtin's answer is no project function's
    builtin = "import os\nimport pytest\nworkers = int(os.environ.get('N', '0'))\n\n\n" \
        "@pytest.mark.skipif(not workers, reason='')\ndef test_x():\n    pass\n"
    assert import_time_flags(ast.parse(builtin), set()) == []
    # no answer kept at import: nothing to wait on
    assert import_time_flags(ast.parse(TEST_LATE), {"is_fast_available"}) == []


def test_a_test_module_calling_a_cuda_only_function_at_import_is_guarded_whole(tmp_path):
    pkg, tests = tmp_path / "pkg", tmp_path / "tests"
    pkg.mkdir()
    tests.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "devices.py").write_text(DEVICES)
    (pkg / "support.py").write_text(SUPPORT)
    (pkg / "library.py").write_text(LIBRARY)
    (tests / "test_fast.py").write_text(TEST_FAST)
    (tests / "test_safe.py").write_text(TEST_SAFE)
    (tests / "test_late.py").write_text(TEST_LATE)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
                 if f["path"] != "pkg/devices.py")
    assert got == [
        ("pkg/library.py", 6, "TRN242", False),
        ("tests/test_fast.py", 10, "TRN242", True),  # the helper
        ("tests/test_fast.py", 22, "TRN243", True),  # the class under the named mark
        ("tests/test_fast.py", 26, "TRN242", False),  # an unmarked test: the port makes it run
        ("tests/test_late.py", 8, "TRN242", False),
        ("tests/test_safe.py", 10, "TRN242", False),  # the answer needs no CUDA: the marks alone tell
    ]
