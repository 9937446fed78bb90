"""A linked value that reaches a call already reported with the same rule is a place of that finding."""
import json

from conftest import run_cli, REPO

from trnready.project.report import _chain_end

FIXTURE = REPO / "tests" / "fixtures" / "accuracy" / "upsampling" / "wrapper_defaults"


def test_chain_end_is_the_call_reached_not_a_value_written():
    assert _chain_end("X (via a.py:9 rescale(interpolation='bilinear') → a.py:11 resize → a.py:6 F.interpolate)") \
        == ("a.py", 6)
    assert _chain_end("X (via b.py:8 layers[0].to(CUDA_0) → c.py:5 CUDA_0 = 'cuda:0')") is None
    assert _chain_end("X (via b.py:8 f())") is None
    assert _chain_end("plain message") is None


def test_wrapper_defaults_and_callers_fold_into_the_interpolate():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--exit-zero")
    found = json.loads(proc.stdout)["findings"]
    assert [(f["path"], f["line"]) for f in found] == [("warp.py", 8)]
    assert {o["line"] for o in found[0]["occurrences"]} >= {11, 16}
    assert [(e["path"], e["line"]) for e in found[0]["elsewhere"]] == [("grow.py", 8)]
