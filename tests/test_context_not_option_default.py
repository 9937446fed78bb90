"""not-option-default: a GPU count is a request where it is a command-line option's default, not elsewhere."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MESSAGE = ("GPU count a command-line option asks for by default: `num_gpus` (a run without the flag sizes its "
           "processes or devices by that many GPUs)")


def test_only_the_default_of_an_option_is_reported():
    # options.py: `--num-gpus default=1` is reported at its default; None, argparse.SUPPRESS and 0 ask for nothing.
    # elsewhere.py: a dict entry, an attribute store and a call keyword of the same names are no option defaults.
    assert scan_findings(CONTEXT_FIXTURES / "not_option_default") == [
        ("options.py", 4, 53, "TRN610", MESSAGE, False)]


def test_registered_for_keyword_matchers():
    p = context.get("not-option-default")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "default" in p.doc
