"""not-handed-to-rule-call: a stored value counts only where the file hands it to a call its rule matches."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MESSAGE = "Float16 mixed precision stored as `mixed_precision` and handed to Accelerate's Accelerator"


def test_an_option_default_reaches_the_rule_call():
    # accelerate_train.py hands args.mixed_precision to accelerate.Accelerator: the argparse default is reported.
    # export_table.py gives the option to an exporter (its Accelerator takes a literal "bf16"), other_callee.py to a
    # project function the rule does not match: silent.
    assert scan_findings(CONTEXT_FIXTURES / "not_handed_to_rule_call") == [
        ("accelerate_train.py", 6, 50, "TRN254", MESSAGE, False),
    ]


def test_registered_for_keyword_matchers():
    p = context.get("not-handed-to-rule-call")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "call" in p.doc
