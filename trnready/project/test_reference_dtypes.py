"""float64 and other operations in the tests of a project that has code of its own besides them (link step).

A test computes its expected values in double precision: a float64 tensor or cast in a test module is the
reference the device result is compared against, or dtype coverage of a function that takes a dtype, not code that
runs in training. Labelling policy of session 22: findings of `test-reference-categories` (float64) in a file of
scope `test` are guarded (`test-reference-dtype`), whatever device the test names, as long as the scan holds some
Python code that is not a test (the project's own code, where a float64 is a port item). When the tests are the
only code scanned, they are what the user ports and stay reported.

Session 23 extends the same reasoning to the other operation categories (`test-operation-categories`: dynamic
shapes, sparse, upsampling, masks, quantisation...). A test that calls `nonzero` or builds a sparse tensor exercises
the project's function that does so; the port item is that function, reported in the project's own code, and the
test runs on the CPU of a Neuron host as it is. Over the verdicts recorded before session 23 (4,533, 698 in tests)
findings of those categories in tests were right 4 times in 119. They are guarded `test-exercised-operation`.
Device, AMP, backend-flag, distributed, library and environment findings in tests are judged as before: a test
that moves data to "cuda" unconditionally fails on Neuron.
"""
from __future__ import annotations

from dataclasses import replace

from ..scope import classify

GUARD = "test-reference-dtype"
OPERATION_GUARD = "test-exercised-operation"
_CODE_KINDS = ("python", "notebook")


def guard_test_reference_dtypes(findings: list, files: list, values: dict) -> list:
    dtypes = frozenset(values.get("test-reference-categories", ()))
    operations = frozenset(values.get("test-operation-categories", ()))
    categories = dtypes | operations
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
        out[i] = replace(out[i], guarded=True, guarded_by=GUARD if out[i].category in dtypes else OPERATION_GUARD)
    return out
