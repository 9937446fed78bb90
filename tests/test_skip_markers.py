"""Skip markers defined in a helper module and put on tests elsewhere (project/skip_markers.py)."""
import ast
import json

from conftest import run_cli
from trnready.project.skip_markers import guarded_helpers, helper_refs, marker_guards

HELPERS = '''import pytest
import torch

skip_if_single_gpu = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
skip_if_no_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
slow = pytest.mark.skipif(False, reason="always runs")


def dist_init(rank, world_size):
    torch.distributed.init_process_group("nccl", rank=rank, world_size=world_size)
'''

# re-exported by the package, as test utilities often are
INIT = '''from .helpers import skip_if_no_cuda, skip_if_single_gpu, slow
'''

TESTS = '''import torch

from mylib.testing import skip_if_no_cuda, slow
from mylib.testing.helpers import skip_if_single_gpu


@skip_if_single_gpu
def test_two_ranks():
    torch.distributed.init_process_group("nccl", rank=0, world_size=2)


@skip_if_no_cuda
class TestOnDevice:
    def test_move(self):
        torch.ones(2).cuda()


@slow
def test_everywhere():
    torch.ones(2).cuda()


def test_plain():
    torch.ones(2).cuda()


def _worker(rank):
    torch.distributed.init_process_group("nccl", rank=rank, world_size=2)


def _shared(rank):
    torch.ones(rank).cuda()


@skip_if_single_gpu
def test_spawned():
    torch.multiprocessing.spawn(_worker, nprocs=2)
    _shared(0)


def test_shared():
    _shared(1)
'''


def _scan(tmp_path):
    pkg = tmp_path / "mylib" / "testing"
    pkg.mkdir(parents=True)
    (tmp_path / "mylib" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "helpers.py").write_text(HELPERS)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_dist.py").write_text(TESTS)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded",
                   cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_tests_under_an_imported_cuda_skip_marker_are_guarded(tmp_path):
    got = sorted((f["path"], f["line"], f["rule"], f.get("guarded_by")) for f in _scan(tmp_path)
                 if f["path"] == "tests/test_dist.py")
    assert got == [
        ("tests/test_dist.py", 9, "TRN271", "neuron-guarded"),  # @skip_if_single_gpu: two GPUs or skipped
        ("tests/test_dist.py", 15, "TRN241", "neuron-guarded"),  # the class is skipped without CUDA
        ("tests/test_dist.py", 20, "TRN241", None),  # `slow` skips nowhere: the test runs on Neuron
        ("tests/test_dist.py", 24, "TRN241", None),  # no marker
        ("tests/test_dist.py", 28, "TRN271", "neuron-guarded"),  # spawned only by a test under the marker
        ("tests/test_dist.py", 32, "TRN241", None),  # also called by a test that runs
    ]


def test_the_helper_module_keeps_its_own_findings(tmp_path):
    got = sorted((f["line"], f["rule"], f.get("guarded_by")) for f in _scan(tmp_path)
                 if f["path"] == "mylib/testing/helpers.py")
    # the marker definition is a skip guard; the helper's own nccl start is reached by tests that do run
    assert got == [(4, "TRN243", "neuron-guarded"), (10, "TRN271", None)]


def test_guards_name_only_imported_decorators():
    tree = ast.parse(TESTS)
    assert marker_guards(tree, {"skip_if_no_cuda", "slow", "skip_if_single_gpu"}) == [
        [7, 9, "~skip_if_single_gpu", False], [12, 15, "~skip_if_no_cuda", False], [18, 20, "~slow", False],
        [35, 38, "~skip_if_single_gpu", False]]
    assert marker_guards(tree, set()) == []


def test_helpers_listed_with_their_references():
    entries = helper_refs(ast.parse(TESTS))
    assert [e for e in entries if e[0] >= 27] == [[27, 28, "^37", False], [31, 32, "^38,42", False]]
    assert guarded_helpers([(35, 38, False)], [(27, 28, "^37"), (31, 32, "^38,42")]) == [(27, 28, False)]


BASE = '''import unittest

import torch


class DistributedCase(unittest.TestCase):
    def setUp(self):
        if not torch.cuda.is_available():
            raise unittest.SkipTest("needs CUDA")


class PlainCase(unittest.TestCase):
    def setUp(self):
        self.size = 2
'''

DERIVED = '''import torch

from mylib.testing.base import DistributedCase, PlainCase


class TestSaved(DistributedCase):
    def test_save(self):
        torch.ones(2).cuda()


class TestCallsBase(DistributedCase):
    def setUp(self):
        super().setUp()

    def test_save(self):
        torch.ones(2).cuda()


class TestOwnSetup(DistributedCase):
    def setUp(self):
        self.size = 2

    def test_save(self):
        torch.ones(2).cuda()


class TestPlain(PlainCase):
    def test_save(self):
        torch.ones(2).cuda()
'''


def test_subclasses_of_an_imported_case_whose_setup_skips_are_guarded(tmp_path):
    pkg = tmp_path / "mylib" / "testing"
    pkg.mkdir(parents=True)
    (tmp_path / "mylib" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "base.py").write_text(BASE)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_saved.py").write_text(DERIVED)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]
                 if f["path"] == "tests/test_saved.py")
    # the base's setUp skips without CUDA; an override that does not call it drops the skip
    assert got == [(8, "neuron-guarded"), (16, "neuron-guarded"), (24, None), (29, None)]
    tree = ast.parse(DERIVED)
    assert [e[2] for e in marker_guards(tree, {"DistributedCase", "PlainCase"})] == [
        "~DistributedCase", "~DistributedCase", "~PlainCase"]
