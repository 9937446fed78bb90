"""float64 in the tests of a project that has code of its own besides them (link step, session 22 policy).

A test computes its expected values in double precision: a float64 tensor or cast in a test module is the
reference the device result is compared against, or dtype coverage of a function that takes a dtype, not code that
runs in training. Labelling policy of session 22: findings of `test-reference-categories` (float64) in a file of
scope `test` are guarded (`test-reference-dtype`), whatever device the test names, as long as the scan holds some
Python code that is not a test (the project's own code, where a float64 is a port item). When the tests are the
only code scanned, they are what the user ports and stay reported.
"""
from __future__ import annotations

from dataclasses import replace

from ..scope import classify

GUARD = "test-reference-dtype"
_CODE_KINDS = ("python", "notebook")


def guard_test_reference_dtypes(findings: list, files: list, values: dict) -> list:
    categories = frozenset(values.get("test-reference-categories", ()))
    if not categories:
        return findings
    wanted = [i for i, f in enumerate(findings)
              if f.category in categories and not f.guarded and not f.suppressed and classify(f.path) == "test"]
    if not wanted:
        return findings
    if not any(sf.kind in _CODE_KINDS and classify(sf.rel) != "test" for sf in files):
        return findings  # the tests are the project's only code
    out = list(findings)
    for i in wanted:
        out[i] = replace(out[i], guarded=True, guarded_by=GUARD)
    return out
