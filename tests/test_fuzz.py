"""Property-based fuzzing of the per-file scanner: no input may make it raise.

CI runs a short pass. A long run is a separate command (see README):
    TRNREADY_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz.py -p no:cacheprovider
"""
import os

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trnready.api import scan_bytes
from trnready.catalogue import load_catalogue
from trnready.match import Engine
from trnready.model import Diagnostic, Finding

ENGINE = Engine(load_catalogue())
EXAMPLES = int(os.environ.get("TRNREADY_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

# Bytes biased towards what the catalogue looks for, so the fuzzer reaches the matcher, not just the parser.
TOKENS = [b"import torch\n", b"torch.compile(m, dynamic=True)", b"F.interpolate(x, mode='bilinear')",
          b".cuda()", b"device='cuda'", b"from torch.nn.functional import *\n", b"\n", b"(", b")", b":",
          b"    ", b"def f(x, mode='bicubic'):\n", b"\xff", b"\x00", b"# -*- coding: latin-1 -*-\n", b"\xef\xbb\xbf"]


def _check(result):
    findings, diag = result
    assert isinstance(findings, list) and all(isinstance(f, Finding) for f in findings)
    assert diag is None or isinstance(diag, Diagnostic)
    if diag is not None:
        assert diag.kind != "internal-error", diag.message


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes_never_raise(data):
    _check(scan_bytes(data, "fuzz.py", "python", ENGINE, prefilter=False))


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join))
def test_token_soup_never_raises(data):
    _check(scan_bytes(data, "fuzz.py", "python", ENGINE, prefilter=False))


@FUZZ
@given(hypothesmith.from_grammar())
def test_generated_programs_never_raise(source):
    _check(scan_bytes(source.encode("utf-8", "surrogatepass"), "fuzz.py", "python", ENGINE, prefilter=False))


@FUZZ
@given(hypothesmith.from_node())
def test_generated_syntax_trees_never_raise(source):
    _check(scan_bytes(source.encode("utf-8", "surrogatepass"), "fuzz.py", "python", ENGINE, prefilter=False))
