"""Tests requesting a conftest.py fixture that skips without CUDA never run on Neuron (project/conftest_fixtures.py)."""
import ast
import json

from conftest import run_cli
from trnready.catalogue import load_catalogue
from trnready.project.conftest_fixtures import fixture_flags, fixture_guards, skipping_fixture

CONFTEST = '''import pytest
import torch


def _require_gpu():
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")


@pytest.fixture(scope="session")
def gpu():
    _require_gpu()
    return torch.device("cuda")


@pytest.fixture
def grid(gpu):
    return torch.zeros(4, 4, device=gpu)


@pytest.fixture
def cpu_grid():
    return torch.zeros(4, 4)
'''

# a nearer conftest redefines `gpu` without a skip: its tests run everywhere
INNER_CONFTEST = '''import pytest
import torch


@pytest.fixture
def gpu():
    return torch.device("cpu")
'''

TESTS = '''import pytest
import torch


def test_on_gpu(gpu):
    x = torch.ones(3, dtype=torch.float64, device=gpu)
    assert x.sum() == 3


def test_through_fixture(grid):
    assert torch.ones(2, dtype=torch.float64, device=grid.device).sum() == 2


def test_on_cpu(cpu_grid):
    assert torch.ones(2, dtype=torch.float64, device=cpu_grid.device).sum() == 2


@pytest.mark.parametrize("gpu", ["cpu"])
def test_parametrized(gpu):
    assert torch.zeros(1, dtype=torch.float64, device=gpu).sum() == 0
'''

INNER_TESTS = '''import torch


def test_redefined(gpu):
    assert torch.zeros(1, dtype=torch.float64, device=gpu).sum() == 0
'''


def test_tests_taking_a_skipping_conftest_fixture_are_guarded(tmp_path):
    tests = tmp_path / "tests"
    (tests / "inner").mkdir(parents=True)
    (tests / "conftest.py").write_text(CONFTEST)
    (tests / "test_ops.py").write_text(TESTS)
    (tests / "inner" / "conftest.py").write_text(INNER_CONFTEST)
    (tests / "inner" / "test_inner.py").write_text(INNER_TESTS)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", "--select", "TRN121",
                   cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"])
    assert got == [
        ("tests/inner/test_inner.py", 5, None),  # the nearer conftest's `gpu` does not skip
        ("tests/test_ops.py", 6, "neuron-guarded"),  # requests `gpu`, which skips without CUDA
        ("tests/test_ops.py", 11, "neuron-guarded"),  # requests `grid`, which requests `gpu`
        ("tests/test_ops.py", 15, None),  # `cpu_grid` runs anywhere
        ("tests/test_ops.py", 20, None),  # `gpu` is a parametrized argument here, not the fixture
    ]


def test_facts_recorded_in_the_summaries():
    values = load_catalogue().context_values
    assert fixture_flags(ast.parse(CONFTEST), values, []) == ["@gpu", "@grid", "@=cpu_grid"]
    assert fixture_flags(ast.parse(INNER_CONFTEST), values, []) == ["@=gpu"]
    assert fixture_flags(ast.parse(TESTS), values, []) == []
    assert fixture_guards(ast.parse(TESTS)) == [[5, 7, "@gpu", False], [10, 11, "@grid", False],
                                                [14, 15, "@cpu_grid", False]]
    flags = {"a/conftest.py": ["@gpu"], "a/b/conftest.py": ["@=gpu"]}
    assert skipping_fixture(flags.get, "a/test_x.py", "gpu")
    assert not skipping_fixture(flags.get, "a/b/c/test_x.py", "gpu")
    assert not skipping_fixture(flags.get, "test_x.py", "gpu")
