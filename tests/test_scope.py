"""Scope from path conventions, and config globs that override it."""
import pytest

from trnready.scope import SCOPES, classify


@pytest.mark.parametrize("rel, scope", [
    ("src/model.py", "source"),
    ("train.py", "source"),
    ("mypkg/ops/attention.py", "source"),
    ("tests/test_model.py", "test"),
    ("mypkg/tests/helpers.py", "test"),
    ("test/unit/foo.py", "test"),
    ("mypkg/test_utils.py", "test"),
    ("mypkg/conftest.py", "test"),
    ("mypkg/ops_test.py", "test"),
    ("examples/train_gpt.py", "example"),
    ("examples/tests/check.py", "example"),  # the outer directory decides
    ("tests/benchmarks/b.py", "test"),
    ("tutorials/intro.ipynb", "example"),
    ("notebooks/demo.ipynb", "example"),
    ("benchmarks/attn.py", "benchmark"),
    ("tools/bench_matmul.py", "benchmark"),
    ("docs/source/conf.py", "docs"),
    (".github/workflows/ci.yml", "ci"),
    (".gitlab-ci.yml", "ci"),
    ("./.github/workflows/ci.yml", "ci"),
    (".circleci/config.yml", "ci"),
    ("Dockerfile", "build"),
    ("docker/Dockerfile.cuda", "build"),
    ("requirements-dev.txt", "build"),
    ("pyproject.toml", "build"),
    ("setup.py", "build"),
    ("environment.yml", "build"),
    ("examples/requirements.txt", "example"),
    ("Testing.md", "source"),  # a name that merely starts with "test" is not a test
    ("latest/model.py", "source"),
    ("contest/model.py", "source"),
])
def test_path_conventions(rel, scope):
    assert classify(rel) == scope
    assert scope in SCOPES


def test_overrides_win_in_order():
    overrides = (("tools/**", "example"), ("scripts/", "benchmark"), ("*.cu", "source"))
    assert classify("tools/convert.py", overrides) == "example"
    assert classify("scripts/run.py", overrides) == "benchmark"
    assert classify("tests/kernels/op.cu", overrides) == "source"
    assert classify("tests/test_x.py", overrides) == "test"
