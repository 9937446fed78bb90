"""only-shown: a data-dependent op whose result only builds a message sizes a string, not a tensor."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_message_only_results_are_dropped_and_others_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "only_shown")]
    # lines 10 (logger.warning) and 11 (print) only show the result
    assert found == [
        ("generate.py", 12, "TRN104"),  # bound to a name first (then logged)
        ("generate.py", 14, "TRN104"),  # indexes a tensor
        ("generate.py", 20, "TRN104"),  # Lightning self.log: a metric every step
    ]


def test_registered_as_a_drop_on_calls():
    p = context.get("only-shown")
    assert p.effect == "drop" and p.kinds == ("call", "method")
