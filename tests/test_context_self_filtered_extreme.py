"""self-filtered-extreme: `x[x > 0].min()` is one number at once; other masked selections stay findings."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
NAMED = ("Indexing with `mask`, a mask by its name: a boolean mask keeps one row per True value, a size known only at "
         "run time")


def test_only_the_self_filtered_extreme_is_dropped():
    # sample(): k-diffusion's smallest positive sigma, both comparison orders, min and amin: dropped.
    # Kept: another tensor's mask (hardest), a sum (total), a selection kept in a variable (kept), a reduction
    # along a dimension, which keeps a tensor (per_row).
    assert scan_findings(CONTEXT_FIXTURES / "self_filtered_extreme") == [
        ("sampling.py", 11, 12, "TRN104", NAMED, False),
        ("sampling.py", 15, 12, "TRN104", MASK, False),
        ("sampling.py", 19, 14, "TRN104", MASK, False),
        ("sampling.py", 24, 12, "TRN104", MASK, False),
    ]


def test_registered_for_subscript_matchers():
    p = context.get("self-filtered-extreme")
    assert p.kinds == ("subscript",) and p.effect == "drop" and "k-diffusion" in p.doc
