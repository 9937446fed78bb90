"""Traced memory (tracemalloc) of the main process around each step of a cold scan.

Usage: python bench/memory_steps.py DIR  (scans DIR with the result cache off; prints, per step, the
memory held after it and the peak during it, in MiB)."""
import sys, tracemalloc
tracemalloc.start(8)
from trnready import api
from trnready.config import Config
import trnready.api as A
import trnready.project.report as R
orig = A._scan_pool
def wrapped(*a, **k):
    tracemalloc.reset_peak()
    r = orig(*a, **k)
    print("pool: cur %.1f peak %.1f" % tuple(x/2**20 for x in tracemalloc.get_traced_memory()))
    tracemalloc.reset_peak()
    return r
A._scan_pool = wrapped
ol = R.link_findings
best = {}
def lf(*a, **k):
    tracemalloc.reset_peak()
    r = ol(*a, **k)
    print("link: cur %.1f peak %.1f" % tuple(x/2**20 for x in tracemalloc.get_traced_memory()))
    tracemalloc.reset_peak()
    return r
R.link_findings = lf
import trnready.project.flags as F, trnready.project.vendored as V
def wrap(mod, name):
    o = getattr(mod, name)
    def w(*a, **k):
        tracemalloc.reset_peak()
        r = o(*a, **k)
        print(name, "cur %.1f peak %.1f" % tuple(x/2**20 for x in tracemalloc.get_traced_memory()))
        tracemalloc.reset_peak()
        return r
    setattr(mod, name, w)
wrap(F, "guard_imported_flags"); wrap(V, "guard_copied_packages")
rep = api.scan([sys.argv[1]], Config(cache=False))
print("end: cur %.1f peak %.1f" % tuple(x/2**20 for x in tracemalloc.get_traced_memory()))
