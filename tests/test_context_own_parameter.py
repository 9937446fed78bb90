"""own-parameter: a keyword the file's own functions take is the project's API, not the library's."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MASK = ("nn.Transformer / TransformerEncoder / TransformerDecoder (layer) called with a padding or non-causal "
        "mask: `src_key_padding_mask`")


def test_keyword_of_a_function_defined_in_the_file_is_silent():
    # wrapper.py defines forward(..., src_key_padding_mask=None) and passes the keyword on: silent.
    # plain.py only calls layers with the keyword: reported at the keyword's value.
    assert scan_findings(CONTEXT_FIXTURES / "own_parameter") == [
        ("plain.py", 6, 43, "TRN173", MASK, False)]


def test_registered_for_keyword_matchers():
    p = context.get("own-parameter")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "parameter" in p.doc
