"""Traced memory (tracemalloc) of the main process around each step of a cold scan.

Usage: python bench/memory_steps.py DIR

Scans DIR with the result cache off and prints, per step, the memory held after it and the peak during it, in
MiB. Steps are wrapped by name (`api._scan_pool`, `project.report.link_findings`,
`project.flags.guard_imported_flags`, `project.vendored.guard_copied_packages`): renaming one of them means
renaming it here too. tracemalloc counts Python allocations only, not RSS; `python -m bench speed` reports RSS.
"""
from __future__ import annotations

import sys
import tracemalloc


def _mib() -> str:
    cur, peak = tracemalloc.get_traced_memory()
    return f"cur {cur / 2**20:.1f} peak {peak / 2**20:.1f}"


def _wrap(module, name: str, label: str) -> None:
    original = getattr(module, name)

    def measured(*args, **kwargs):
        tracemalloc.reset_peak()
        result = original(*args, **kwargs)
        print(f"{label}: {_mib()}")
        tracemalloc.reset_peak()
        return result

    setattr(module, name, measured)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tracemalloc.start(8)
    import trnready.api as api
    import trnready.project.flags as flags
    import trnready.project.report as report
    import trnready.project.vendored as vendored
    from trnready.config import Config

    _wrap(api, "_scan_pool", "worker pool (results gathered)")
    _wrap(report, "link_findings", "link step")
    _wrap(flags, "guard_imported_flags", "imported-flags step")
    _wrap(vendored, "guard_copied_packages", "copied-projects step")
    api.scan([argv[0]], Config(cache=False))
    print(f"end: {_mib()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
