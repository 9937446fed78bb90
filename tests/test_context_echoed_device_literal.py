"""echoed-device-literal: `"cuda" if device.type == "cuda" else device.type` is device.type on every device; a pick
of CUDA against another value, or against another literal, stays a finding."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_a_literal_echoing_the_tested_value_is_no_finding():
    proc = run_cli("scan", CONTEXT_FIXTURES / "echoed_device_literal", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("adapter.py", 14, 12, "TRN242"), ("adapter.py", 19, 12, "TRN242")]


def test_registered_as_a_drop():
    assert context.get("echoed-device-literal").effect == "drop"
