"""parameter-surgery: a data-dependent shape in a method that rebuilds the module's parameters is guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_pruning_methods_are_guarded_and_the_forward_is_not():
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "parameter_surgery", "--show-guarded")]
    # line 7: torch.where in prune_params (assigns new Parameters); line 12: a boolean mask in `shrink` writing
    # `.data`; line 15: `sample` rebuilds a Parameter at every step (fast-reid's partial FC) and its name says
    # nothing of pruning, so it stays; line 19: the same torch.where in forward stays reported
    assert got == [(7, 21, "TRN105", True), (12, 28, "TRN104", True), (15, 17, "TRN104", False),
                   (19, 21, "TRN105", False)]


def test_registered_as_a_guard():
    p = context.get("parameter-surgery")
    assert p.effect == "guard" and set(p.kinds) == {"call", "method", "subscript"}
