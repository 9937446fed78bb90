"""extension-build-check: a CUDA query in a build script that can build a CppExtension picks what is compiled."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_a_build_script_with_a_cpu_extension_picks_no_device():
    # both/setup.py builds a CppExtension when the query answers False (as on Trainium): the query is guarded;
    # cuda_only/setup.py builds nothing without CUDA: its query stays
    found = [(p, ln, rule, guarded) for p, ln, _c, rule, _m, guarded in
             scan_findings(CONTEXT_FIXTURES / "extension_build_check", "--show-guarded") if rule == "TRN243"]
    assert found == [("both/setup.py", 7, "TRN243", True), ("cuda_only/setup.py", 5, "TRN243", False)]


def test_registered_as_a_guard_of_references():
    p = context.get("extension-build-check")
    assert p is not None and p.effect == "guard" and p.kinds == ("reference",)
