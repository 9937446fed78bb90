"""not-a-class-base: TRN352 reports a class derived from DataParallel, not a type test of DataParallel."""
from conftest import CONTEXT_FIXTURES, scan_findings

DERIVED = "Class derived from nn.DataParallel: `{}` (its copies and batch splits go through CUDA-only helpers)"


def test_only_class_bases_are_reported():
    # par.py:15 constructs the derived class (a project call, not DataParallel's), par.py:19 is an isinstance test
    assert scan_findings(CONTEXT_FIXTURES / "not_a_class_base") == [
        ("par.py", 5, 30, "TRN352", DERIVED.format("torch.nn.DataParallel"), False),
        ("par.py", 10, 21, "TRN352", DERIVED.format("torch.nn.parallel.data_parallel.DataParallel"), False),
    ]
