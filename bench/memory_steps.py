"""Traced memory (tracemalloc) of the main process around each step of a cold scan.

Usage: python bench/memory_steps.py DIR

Scans DIR with the result cache off and prints, per step, the memory held after it and the peak during it, in
MiB. Steps are wrapped by name (`api._scan_pool`, `project.report.link_findings`,
`project.callers.guard_by_callers`, `project.flags.guard_imported_flags`, `project.cuda_build.guard_cuda_build_tests`,
`project.vendored.guard_copied_packages`, `project.config_keys.guard_unread_settings`,
`project.config_switches.switched_findings`): renaming one of them means
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
    import trnready.project.callers as callers
    import trnready.project.config_keys as config_keys
    import trnready.project.config_switches as config_switches
    import trnready.project.cuda_build as cuda_build
    import trnready.project.flags as flags
    import trnready.project.report as report
    import trnready.project.vendored as vendored
    from trnready.config import Config

    _wrap(api, "_scan_pool", "worker pool (results gathered)")
    _wrap(report, "link_findings", "link step")
    _wrap(callers, "guard_by_callers", "callers step")
    _wrap(flags, "guard_imported_flags", "imported-flags step")
    _wrap(cuda_build, "guard_cuda_build_tests", "cuda-build-tests step")
    _wrap(vendored, "guard_copied_packages", "copied-projects step")
    _wrap(config_keys, "guard_unread_settings", "unread-settings step")
    _wrap(config_switches, "switched_findings", "config-switches step")
    api.scan([argv[0]], Config(cache=False))
    print(f"end: {_mib()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
