"""Writing a planned file: inside the scanned roots, atomically, and only if it did not change since it was read.

Scanned trees may be hostile (a vendor's repository, a pull request): a file that is a
symbolic link, or whose resolved path leaves the scanned roots, is refused, both when
planning and again right before writing. The new content goes to a temporary file in the
same (resolved) directory, gets the old file's mode, owner and group where the process
may set them, and replaces the old name in one rename. The directory is held open while
doing so, so swapping a directory for a symlink in between cannot redirect the write.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import stat
from pathlib import Path
from typing import Callable, Optional

from .model import FileFix

_DIR_FD = all(f in os.supports_dir_fd for f in (os.replace, os.open, os.stat, os.access, os.unlink))


def inside(path: str, roots) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def refuse(path: Path, roots) -> str:
    """Why `path` must not be edited ("" if it may): a symlink, not a regular file, or outside the roots."""
    try:
        st = os.lstat(path)
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if stat.S_ISLNK(st.st_mode):
        return ("a symbolic link (to " + os.readlink(path) + "); fix edits only regular files, "
                "not what a link points to: reported, not edited")
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file; not edited"
    if roots and not inside(os.path.realpath(path), roots):
        return "resolves outside the scanned paths; not edited"
    return ""


def write_fix(ff: FileFix, before_replace: Optional[Callable[[Path], None]] = None) -> str:
    """Write one planned file atomically; returns "" or why it was skipped. Notes go to `ff.notes`.

    The file is re-read just before the rename: if its bytes differ from the ones
    the rewrite was computed from, it is left alone.
    """
    if not ff.changed:
        return ""
    why = refuse(ff.path, ff.roots)
    if why:
        return why
    directory = os.path.realpath(ff.path.parent)
    name = ff.path.name
    if ff.roots and not inside(os.path.join(directory, name), ff.roots):
        return "resolves outside the scanned paths; not edited"
    try:
        payload = ff.new.encode(ff.encoding)
    except (UnicodeEncodeError, LookupError) as e:
        return f"cannot encode the result as {ff.encoding}: {e}"
    try:
        dfd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if _DIR_FD else None
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    at: dict = {"dir_fd": dfd} if dfd is not None else {}
    full = name if dfd is not None else os.path.join(directory, name)
    tmp = None
    try:
        st = os.stat(full, follow_symlinks=False, **at)
        if not stat.S_ISREG(st.st_mode):
            return "no longer a regular file; not written"
        read_only = not st.st_mode & 0o222 or not os.access(full, os.W_OK, **at)
        if read_only:  # also for root, who could write it: a read-only mode says "do not edit"
            return "the file is read-only; not written"
        tmp_name = f".{name}.{secrets.token_hex(4)}.trnready-fix"
        tmp = tmp_name if dfd is not None else os.path.join(directory, tmp_name)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600, **at)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
            try:  # owner and group first: changing them clears set-id bits, which the chmod restores
                os.fchown(fh.fileno(), st.st_uid, st.st_gid)
            except OSError:
                try:
                    os.fchown(fh.fileno(), -1, st.st_gid)
                except OSError:
                    pass  # not permitted: the new file keeps this process's owner and group
            os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
        if before_replace is not None:
            before_replace(Path(directory) / name)
        rfd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), **at)
        with os.fdopen(rfd, "rb") as fh:
            now: bytes | None = fh.read()
            if os.fstat(fh.fileno()).st_ino != st.st_ino:
                now = None
        if now is None or hashlib.sha256(now).digest() != hashlib.sha256(ff.data).digest():
            return "changed on disk since it was read; not written (run fix again)"
        if dfd is not None:
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        else:
            os.replace(tmp, full)
        tmp = None
        if st.st_nlink > 1:
            ff.notes.append(f"had {st.st_nlink} hard links: this name now has its own rewritten copy; "
                            f"the other {st.st_nlink - 1} keep the old content")
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp, **at)
            except OSError:
                pass
        if dfd is not None:
            os.close(dfd)
    ff.written = True
    return ""
