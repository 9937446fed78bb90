"""TRN322: NumPy's aliases of the builtin types, gone since NumPy 1.24."""
from __future__ import annotations

import json

from conftest import run_cli, write


def scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"],
             [o["line"] for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN322"]


def test_the_aliases_are_reported(tmp_path):
    write(tmp_path, "loading.py", """
        import numpy as np


        def offsets(n, k):
            base = np.zeros((n,), dtype=np.int)
            step = (np.arange(k) * 2.5).astype(np.int)
            return base, step, np.float(k)


        def frames(inds):
            return inds.astype(np.int), inds.astype(np.int64)
        """)
    write(tmp_path, "other.py", """
        import numpy
        names = numpy.loadtxt("x.csv", dtype=numpy.str)
        """)
    # a run of neighbouring statements is one item (one_per_thing); another function is another item
    assert sorted(scan(tmp_path)) == [
        ("loading.py", 5, 33, "TRN322", "NumPy alias removed in NumPy 1.24: `numpy.int` (AttributeError with the "
         "NumPy that Python 3.12 needs)", [6, 7]),
        ("loading.py", 11, 24, "TRN322", "NumPy alias removed in NumPy 1.24: `numpy.int` (AttributeError with the "
         "NumPy that Python 3.12 needs)", []),
        ("other.py", 2, 38, "TRN322", "NumPy alias removed in NumPy 1.24: `numpy.str` (AttributeError with the "
         "NumPy that Python 3.12 needs)", []),
    ]


def test_sized_types_and_builtins_are_not_aliases(tmp_path):
    write(tmp_path, "ok.py", """
        import numpy as np
        a = np.zeros(3, dtype=int) + np.int64(1) + np.float32(2.0)
        b = np.ones(2, dtype=np.bool_).astype(np.float64)
        c = np.dtype("int").type
        """)
    assert scan(tmp_path) == []
