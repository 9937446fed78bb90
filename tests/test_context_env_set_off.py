"""env-set-off: a kernel-build switch set to a false value builds nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_a_switch_set_off_is_silent_and_one_set_on_stays():
    # 3-15: "0", "false" and "" written by subscript, setdefault, update keyword and update dict (without the
    # predicate each is reported); 19: a value chosen at run time; 23: "1"
    assert scan_findings(CONTEXT_FIXTURES / "env_set_off") == [
        ("run.py", 19, 16, "TRN302", "CUDA kernel build switched on: `FORCE_CUDA`", False),
        ("run.py", 23, 16, "TRN302", "CUDA kernel build switched on: `RWKV_CUDA_ON`", False),
    ]


def test_registered_as_a_drop_on_env():
    p = context.get("env-set-off")
    assert p.effect == "drop" and p.kinds == ("env",)
