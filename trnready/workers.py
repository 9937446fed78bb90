"""Worker processes shared by the scan and `trnready fix`: how they treat signals and how they stop.

Both run their workers in a forked process pool. A worker ignores Ctrl-C (the parent handles it once
and stops the pool), gets back the default SIGTERM (a forked worker inherits the CLI's handler, which
would make the parent's terminate() raise inside the pool's queue instead of ending the worker), and
ends when the parent dies, even by SIGKILL.
"""
from __future__ import annotations

import os
import sys
import time


def init_worker(parent: int | None = None) -> None:
    """Call first in a pool initializer."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if parent is not None:
        exit_with_parent(parent)


def exit_with_parent(parent: int) -> None:
    """A worker ends when the scan that started it dies, even by SIGKILL (no cleanup can run then)."""
    import signal

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    else:  # elsewhere: a thread watching for the parent to go (the worker is then re-parented)
        import threading

        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True, name="trnready-parent-watch").start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)


def stop_pool(pool) -> None:
    """On an interrupt: end the workers at once and drop queued work instead of draining the queue."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
