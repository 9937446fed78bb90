"""Python 3.6 code that uses `async` as a name is read with the 3.6 grammar (readers/python.py), and the keyword
argument is TRN323 wherever it sits: a syntax error breaks the module whatever guards the line."""
import json

from conftest import FIXTURES, run_cli

ASYNC = "`async=` keyword argument: a syntax error since Python 3.7 (write non_blocking=)"


def _scan(*args):
    proc = run_cli("scan", FIXTURES / "old_async", "--format", "json", "--no-cache", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_async_keyword_is_reported_and_the_file_is_scanned():
    got = _scan("--show-guarded")
    found = [(f["path"], f["line"], f["column"], f["rule"], f["guarded"]) for f in got["findings"]
             if f["rule"] in ("TRN323", "TRN241")]
    assert found == [
        # `inputs.cuda(async=True)`: TRN323's fix (`.to("neuron", non_blocking=True)`) is the move too, so the
        # .cuda() is a place of that finding (`fix-covers`), not an item of its own
        ("eval.py", 6, 36, "TRN323", False),
        # under `if use_cuda:` the .cuda() is guarded, the syntax error is not: the module does not import at all
        ("train.py", 9, 31, "TRN241", True),
        ("train.py", 9, 65, "TRN323", False),
    ]
    assert [f["message"] for f in got["findings"] if f["rule"] == "TRN323"] == [ASYNC, ASYNC]
    kept = next(f for f in got["findings"] if f["rule"] == "TRN323" and f["path"] == "eval.py")
    assert kept["occurrences"] == [{"line": 6, "column": 18, "rule": "TRN241"}]


def test_a_file_broken_otherwise_stays_a_syntax_error():
    # broken.py passes async= but also leaves a call unclosed: the 3.6 grammar fails too, so it is a diagnostic
    got = _scan()
    kinds = {(d["path"], d["kind"]) for d in got["diagnostics"]}
    assert kinds == {("broken.py", "syntax-error")}
