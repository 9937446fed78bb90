"""not-collected: test files the project's own pytest configuration never collects are guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings

MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_tests_pytest_never_collects_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "uncollected_tests", "--show-guarded") == [
        # addopts ignores it, but a CI step runs the path explicitly: pytest collects what it is given
        ("tests/explicit/test_layers.py", 5, 9, "TRN241", MOVE, False),
        # a conftest list filled under a CUDA check depends on the machine: not read
        ("tests/machine/conftest.py", 4, 8, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`", True),
        ("tests/machine/test_gpu.py", 5, 9, "TRN241", MOVE, False),
        # --ignore-glob=tests/old_*
        ("tests/old_glob/test_layers.py", 5, 9, "TRN241", MOVE, True),
        # --ignore=tests/test_legacy (the CI step names it only after --ignore)
        ("tests/test_legacy/test_layers.py", 5, 9, "TRN241", MOVE, True),
        # collected: reported
        ("tests/test_new/test_layers.py", 5, 9, "TRN241", MOVE, False),
        # a conftest's literal collect_ignore, relative to its folder
        ("tests/unit/test_dropped.py", 5, 9, "TRN241", MOVE, True),
    ]


def test_source_modules_ignored_for_doctests_stay(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ops.py").write_text("import torch\n\n\ndef f():\n    return torch.ones(1).cuda()\n")
    (tmp_path / "train.py").write_text("from pkg.ops import f\n\nf()\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --doctest-modules --ignore=pkg/ops.py\n")
    assert scan_findings(tmp_path, "--show-guarded") == [
        ("pkg/ops.py", 5, 12, "TRN241", MOVE + "; f() called at train.py:3", False)]
