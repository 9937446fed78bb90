"""Writing a planned file: atomically, and only if it did not change since it was read."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Callable, Optional

from .model import FileFix


def write_fix(ff: FileFix, before_replace: Optional[Callable[[Path], None]] = None) -> str:
    """Write one planned file atomically; returns "" or why it was skipped.

    The file is re-read just before the rename: if its bytes differ from the ones
    the rewrite was computed from, it is left alone.
    """
    if not ff.changed:
        return ""
    target = Path(os.path.realpath(ff.path))  # through a symlink: replace the file, not the link
    try:
        read_only = not os.access(target, os.W_OK) or not os.stat(target).st_mode & 0o222
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    if read_only:  # also for root, who could write it: a read-only mode says "do not edit"
        return "the file is read-only; not written"
    try:
        payload = ff.new.encode(ff.encoding)
    except (UnicodeEncodeError, LookupError) as e:
        return f"cannot encode the result as {ff.encoding}: {e}"
    try:
        st = os.stat(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".trnready-fix", dir=target.parent)
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, st.st_mode & 0o7777)
        if before_replace is not None:
            before_replace(target)
        with open(target, "rb") as fh:
            now = fh.read()
        if hashlib.sha256(now).digest() != hashlib.sha256(ff.data).digest():
            os.unlink(tmp)
            return "changed on disk since it was read; not written (run fix again)"
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            return f"cannot write: {e.strerror or e}"
        raise
    ff.written = True
    return ""

