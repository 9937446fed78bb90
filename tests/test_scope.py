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
    ("pyg_lib/testing.py", "test"),  # a package's test helpers (skip decorators, device and dtype lists)
    ("megatron/testing_utils.py", "test"),
    ("mypkg/attesting.py", "source"),
    ("examples/train_gpt.py", "example"),
    ("examples/tests/check.py", "example"),  # the outer directory decides
    ("tests/benchmarks/b.py", "test"),
    ("tutorials/intro.ipynb", "example"),
    ("notebooks/demo.ipynb", "example"),
    ("benchmarks/attn.py", "benchmark"),
    ("tools/bench_matmul.py", "benchmark"),
    ("docs/source/conf.py", "docs"),
    (".readthedocs.yml", "docs"),  # the Read the Docs build configuration
    ("sub/.readthedocs.yaml", "docs"),
    (".github/workflows/ci.yml", "ci"),
    (".gitlab-ci.yml", "ci"),
    ("./.github/workflows/ci.yml", "ci"),
    (".circleci/config.yml", "ci"),
    (".azure/gpu-tests.yml", "ci"),  # Azure Pipelines files the CI reader reads (readers/configs.py _CI_PATHS)
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


# ---------------------------------------------------------------- wired into the scan (real CLI)

import json  # noqa: E402

from conftest import run_cli  # noqa: E402


def _project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text("import torch\n\nx = torch.randn(2).to(torch.float64)\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_model.py").write_text(
        # a test importing CUDA-only libraries (an operation in a test is guarded beside project code, policy s23)
        "import torch\n\nimport flash_attn\nif a:\n    import apex\n")
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "demo.py").write_text("import torch\n\nz = torch.nested.nested_tensor([c])\n")


def _json(tmp_path, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", *args, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_every_finding_has_a_scope_and_the_verdict_counts_source_and_build(tmp_path):
    _project(tmp_path)
    rc, report = _json(tmp_path)
    assert [(f["path"], f["line"], f["rule"], f["scope"]) for f in report["findings"]] == [
        ("examples/demo.py", 3, "TRN151", "example"),
        ("pkg/model.py", 3, "TRN121", "source"),
        ("tests/test_model.py", 3, "TRN281", "test"),
        ("tests/test_model.py", 5, "TRN283", "test"),
    ]
    s = report["summary"]
    assert s["by_scope"] == {"source": {"blocker": 0, "change": 0, "advisory": 1},
                             "test": {"blocker": 2, "change": 0, "advisory": 0},
                             "example": {"blocker": 1, "change": 0, "advisory": 0}}
    assert s["gate"] == {"scopes": ["source", "build"], "min_confidence": "medium",
                         "counted": {"blocker": 0, "change": 0, "advisory": 1}, "medium_confidence": 1}
    # TRN121 is medium everywhere: audited float64 findings were right less than half the time (docs/scope.md)
    assert s["verdict"] == ("ready, with 1 advisory to review (source, build; 3 blockers in test, example), "
                            "1 of them medium confidence")
    assert rc == 0  # the blockers sit in tests and examples: listed, not counted


def test_scope_option_chooses_what_the_gate_counts(tmp_path):
    _project(tmp_path)
    proc = run_cli("scan", ".", "--no-cache", "--scope", "source,test", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Verdict: not ready: 2 blockers (source, test; 1 more in example)" in proc.stdout
    assert "By scope: source 1 advisory; test 2 blocker; example 1 blocker (not counted)" in proc.stdout
    proc = run_cli("scan", ".", "--no-cache", "--scope", "source,tests", cwd=tmp_path)
    assert proc.returncode == 2 and "'tests' is not a scope" in proc.stderr


def test_config_scopes_and_gate_scopes(tmp_path):
    _project(tmp_path)
    (tmp_path / "trnready.toml").write_text('gate-scopes = ["source", "example"]\n\n[scopes]\n"pkg/**" = "benchmark"\n')
    rc, report = _json(tmp_path)
    assert [f["scope"] for f in report["findings"]] == ["example", "benchmark", "test", "test"]
    assert report["summary"]["verdict"] == "not ready: 1 blocker (source, example; 2 more in test)"
    assert rc == 1


def test_bad_scope_config_is_one_line(tmp_path):
    _project(tmp_path)
    (tmp_path / "trnready.toml").write_text('[scopes]\n"pkg/**" = "library"\n')
    proc = run_cli("scan", ".", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith(
        "trnready.toml:2: key 'scopes.pkg/**': must be one of source, build, test, example, benchmark, docs, ci")
    (tmp_path / "trnready.toml").write_text('gate-scopes = []\n')
    proc = run_cli("scan", ".", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 2 and "trnready.toml:1: key 'gate-scopes': must be a non-empty list" in proc.stderr


def test_gate_min_confidence_counts_high_only(tmp_path):
    # `.cuda()` on an unknown receiver is medium confidence; torch.cuda.synchronize() is high.
    (tmp_path / "m.py").write_text("import torch\n\ndef f(m):\n    return m.cuda()\n\n"
                                   "torch.cuda.synchronize()\n")
    # (another module calls f: a function nothing calls, in a module that runs at import, is dead code)
    (tmp_path / "run.py").write_text("from m import f\n\nf(None)\n")
    rc, report = _json(tmp_path)
    conf = {f["rule"]: f["confidence"] for f in report["findings"]}
    assert conf == {"TRN241": "medium", "TRN243": "high"}
    assert report["summary"]["verdict"] == "ready after mechanical changes: 2 changes, 1 of them medium confidence"
    rc, report = _json(tmp_path, "--gate-min-confidence", "high")
    assert report["summary"]["verdict"] == ("ready after mechanical changes: 1 change "
                                            "(source, build; 1 more of medium confidence)")
    assert report["summary"]["gate"]["counted"]["change"] == 1 and rc == 0


def test_html_shows_a_verdict_per_scope_and_filters_by_scope(tmp_path):
    _project(tmp_path)
    proc = run_cli("scan", ".", "--no-cache", "--html", "r.html", "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "r.html").read_text()
    assert ('data-scope="test"><strong>test</strong> not ready: 2 blockers <span class="muted">(not counted)</span>'
            in html)
    assert 'data-scope="source"><strong>source</strong> ready, with 1 advisory to review</li>' in html
    assert html.count('data-s="test"') == 2 and html.count('data-s="example"') == 1
    assert '<option value="example">example</option>' in html


SELF_CHECK = '''import torch


def scan_fwd(x):
    return torch.cumsum(x.to(x.device, torch.float64), 0)  # `.device`: code that runs on a device


if __name__ == "__main__":
    x = torch.randn(8, dtype=torch.float64)
    print(scan_fwd(x))
'''


def test_self_check_block_of_a_package_module_is_an_example(tmp_path):
    """A package module's `__main__` block (a hand-run self-check) is listed as `example`; the module's own
    code stays `source`. A top-level script's `__main__` block may be the program: it keeps its file's scope,
    and so does a module a `[scopes]` glob names."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "scan.py").write_text(SELF_CHECK)
    (tmp_path / "train.py").write_text(SELF_CHECK)
    _, report = _json(tmp_path)
    assert [(f["path"], f["line"], f["scope"]) for f in report["findings"]] == [
        ("pkg/scan.py", 5, "source"), ("pkg/scan.py", 9, "example"),
        ("train.py", 5, "source"), ("train.py", 9, "source")]
    (tmp_path / "trnready.toml").write_text('[scopes]\n"pkg/scan.py" = "source"\n')
    _, report = _json(tmp_path)
    assert [f["scope"] for f in report["findings"] if f["path"] == "pkg/scan.py"] == ["source", "source"]


def test_a_tests_folder_no_runner_collects_from_is_the_programs():
    from trnready import scope

    rels = ["run.py", "tests/mt_nd/user_base.py", "tests/mt_nd/closed_form_ref.py", "lib/tests/test_ops.py",
            "lib/tests/helpers.py", "tools/test/data.txt", "pkg/test/sub/conftest.py", "pkg/test/sub/util.py"]
    assert scope.test_free_dirs(rels) == frozenset({"tests"})
    try:
        scope.use_test_free_dirs(scope.test_free_dirs(rels))
        assert [classify(r) for r in ("tests/mt_nd/user_base.py", "lib/tests/helpers.py", "pkg/test/sub/util.py")] \
            == ["source", "test", "test"]
    finally:
        scope.use_test_free_dirs(frozenset())


def test_a_scan_reads_a_test_free_folder_as_the_program(tmp_path):
    import json

    from conftest import run_cli

    (tmp_path / "tests" / "sir").mkdir(parents=True)
    (tmp_path / "tests" / "sir" / "user_base.py").write_text(
        'import torch\n\ndevice = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    got = [(f["path"], f["line"], f["scope"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("tests/sir/user_base.py", 3, "source")]
    (tmp_path / "tests" / "test_sir.py").write_text("def test_nothing():\n    pass\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    assert [f["path"] for f in json.loads(proc.stdout)["findings"]] == []  # a test's CPU fallback (guarded)
