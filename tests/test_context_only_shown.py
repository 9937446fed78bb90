"""only-shown: a data-dependent op whose result only builds a message sizes a string, not a tensor."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_message_only_results_are_dropped_and_others_stay():
    proc = run_cli("scan", CONTEXT_FIXTURES / "only_shown", "--format", "json", "--no-cache", "--exit-zero")
    found = [(f["path"], f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
             for f in json.loads(proc.stdout)["findings"]]
    # lines 10 (logger.warning) and 11 (print) only show the result
    assert found == [
        # bound to a name first (then logged); line 14 indexes a tensor with the indices of the same mask `finish`,
        # a place of the same finding (one item per mask per function)
        ("generate.py", 12, "TRN104", [14]),
        ("generate.py", 20, "TRN104", []),  # Lightning self.log: a metric every step
        # label_counts: the mask selection inside print (25) only builds the message; bound to a name (26) it stays
        ("generate.py", 26, "TRN104", []),
        # `torch.log` computes: a logger's `log` only by its name (pytorch-tools' wing loss, fresh75)
        ("generate.py", 32, "TRN104", []),
        # startup.py: the printed availability (3) is a log line; the flag bound to a name (4) picks the device the
        # script then uses (5)
        ("startup.py", 4, "TRN243", []),
        ("startup.py", 5, "TRN242", []),
    ]


def test_registered_as_a_drop_on_calls_and_subscripts():
    p = context.get("only-shown")
    assert p.effect == "drop" and p.kinds == ("call", "method", "reference", "subscript")
