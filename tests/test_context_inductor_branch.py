"""inductor-branch: Inductor options already inside `if backend == "inductor":` are where the fix puts them."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "Inductor or Triton compiler options: `torch._inductor.config`"


def test_inductor_branch_is_silent_other_branches_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "inductor_branch", "--select", "TRN113") == [
        # lines 8 and 9 run only when the backend is inductor
        ("backends.py", 10, 5, "TRN113", MSG, False),
        ("backends.py", 16, 9, "TRN113", MSG, False),  # `!=`: the other branch
    ]
