"""not-causal-built-mask: TRN174 reports exactly the calls the mask rules leave to it, each once."""
from conftest import CONTEXT_FIXTURES, scan_findings

RULES = "TRN171,TRN172,TRN173,TRN174"


def test_each_masked_call_is_reported_by_one_rule_and_the_causal_ones_by_trn174():
    found = scan_findings(CONTEXT_FIXTURES / "causal_built_mask", "--select", RULES)
    places = [(f[0], f[1], f[2]) for f in found]
    assert len(places) == len(set(places))  # never both rules at one call
    causal = [(f[0], f[1]) for f in found if f[3] == "TRN174"]
    # the bool triu(1) buffer of shapes.py and the -inf builders are causal; the blockers are not reported there
    assert ("shapes.py", 20) in causal
    assert not any(f[3] != "TRN174" and (f[0], f[1]) in causal for f in found)
    # with TRN174 alone selected the causal calls remain (and those folded into a neighbouring blocker of the same
    # category come back as findings of their own); no other rule's place is among them
    alone = [(f[0], f[1]) for f in scan_findings(CONTEXT_FIXTURES / "causal_built_mask", "--select", "TRN174")]
    assert causal and set(causal) <= set(alone)
    assert all(f[3] == "TRN174" for f in scan_findings(CONTEXT_FIXTURES / "causal_built_mask", "--select", "TRN174"))
