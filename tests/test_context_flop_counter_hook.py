"""flop-counter-hook: a profiler's FLOP-counting hook runs on the host; its float64 counter is no model tensor."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_hooks_adding_to_a_module_counter_are_dropped_and_others_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "flop_counter_hook")]
    # line 11: thop's hook protocol (`model.total_ops += ...`)
    assert found == [
        # line 6: the counter spelled with a fullwidth letter is the same attribute (the text is read NFKC-normalised
        # by the first look that skips files naming no counter attribute)
        ("fullwidth.py", 10, "TRN121"),
        ("openaimodel.py", 21, "TRN121"),  # a float64 tensor kept on the module, no counter added to
        ("openaimodel.py", 27, "TRN121"),  # the counter is assigned, not added to: a cast of model data
    ]


def test_registered_as_a_drop_everywhere():
    from trnready.catalogue import load_catalogue

    p = context.get("flop-counter-hook")
    assert p.effect == "drop" and "flop-counter-hook" in load_catalogue().everywhere
