"""caught-exception-type: `torch.cuda.OutOfMemoryError` caught by a handler or tested by isinstance needs no change."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_handlers_and_isinstance_checks_are_not_reported():
    proc = run_cli("scan", CONTEXT_FIXTURES / "caught_exception_type", "--format", "json", "--no-cache",
                   "--no-config")
    assert proc.returncode in (0, 1), proc.stderr
    found = [(f["path"], f["line"], f["column"], f["rule"], f["message"])
             for f in json.loads(proc.stdout)["findings"]]
    # not: the handler of line 7, the tuple of line 14, the isinstance test of line 15; the raise and the
    # memory summary stay
    assert found == [
        ("retry.py", 21, 11, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.OutOfMemoryError`"),
        ("retry.py", 25, 12, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.memory_summary`"),
    ]


def test_registered_for_reference_matchers():
    p = context.get("caught-exception-type")
    assert p.kinds == ("reference",) and p.effect == "drop" and "OutOfMemoryError" in p.doc
