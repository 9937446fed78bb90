"""unread-extension: a compiled extension loaded into a name nothing in its file reads is no finding."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_only_the_load_whose_handle_calls_a_kernel_is_reported():
    # encoder.py loads the same ops and never reads ext_module: its load is no finding; attn_function.py calls
    # ms_deform_attn_forward through its handle
    got = [f for f in scan_findings(CONTEXT_FIXTURES / "unread_extension", "--show-guarded") if f[3] == "TRN302"]
    assert got == [("attn_function.py", 4, 14, "TRN302",
                    "compiled mmcv extension loaded: `mmcv.utils.ext_loader.load_ext` "
                    "(the C++/CUDA `_ext` module built by setup.py); imported at encoder.py:3", False)]


def test_registered_as_a_drop_for_calls_and_methods():
    p = context.get("unread-extension")
    assert p.effect == "drop" and set(p.kinds) == {"call", "method"}
