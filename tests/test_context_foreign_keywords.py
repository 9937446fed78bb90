"""foreign-keywords: a keyword the library function does not take means the callee is the project's own."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

COMPILE = "torch.compile with a backend other than neuron: `compile`"


def test_project_method_sharing_a_library_name_is_silent():
    # task.py: teacher.compile(..., compile_model=True) is a project method (nn.Module.compile has no such
    # keyword); student.compile(backend=..., mode=...) and the **kwargs-only call stay reported.
    got = [(f[0], f[1], f[3], f[4]) for f in scan_findings(CONTEXT_FIXTURES / "foreign_keywords")]
    # (since session 51 the parameter's default "inductor" is a place of each, named in the message: TRN111 reads a
    # backend held by a default)
    assert got == [("task.py", 3, "TRN111", COMPILE + " (`backend` defaults to it at line 2)"),
                   ("task.py", 8, "TRN111", COMPILE + " (`backend` defaults to it at line 7)")]


def test_registered_for_method_and_call_matchers():
    p = context.get("foreign-keywords")
    assert p.kinds == ("method", "call") and p.effect == "drop" and "TypeError" in p.doc
