"""A file on disk -> decoded text, or a Diagnostic saying why not."""
from __future__ import annotations

import io
import os
import stat
import tokenize
from pathlib import Path

from .model import Diagnostic

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
# The largest --max-file-size / max-file-size accepted: a file is held in memory while it is scanned.
MAX_FILE_SIZE_LIMIT = 1024 * 1024 * 1024
# Config files and catalogues: the built-in catalogue is ~0.2 MB.
SETTINGS_MAX_BYTES = 8 * 1024 * 1024


class NotRegularFile(OSError):
    """A FIFO, device or socket where a file was expected: reading it could block or never end."""


class FileTooLarge(OSError):
    pass


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def describe_mode(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes.

    Opened without blocking (a FIFO would wait for a writer), checked with fstat on the open
    descriptor (a symlink to /dev/zero is a device), and read at most limit + 1 bytes."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(f"not a regular file ({describe_mode(st.st_mode)})")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # Sized by the file, not by the limit: read(n) allocates n bytes up front.
            chunks, total = [], 0
            want = min(limit, st.st_size) + 1
            while total <= limit:
                chunk = fh.read(max(1, min(want, limit + 1 - total)))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                want = 1024 * 1024  # the file grew since fstat
            data = b"".join(chunks)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileTooLarge(f"larger than the {limit:,}-byte limit")
    return data


def read_bytes(path: Path, rel: str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes | None, Diagnostic | None]:
    try:
        data = read_regular(path, max_bytes)
    except NotRegularFile as e:
        return None, Diagnostic(rel, "unreadable", str(e))
    except FileTooLarge:
        return None, Diagnostic(rel, "too-large", f"larger than the {max_bytes:,}-byte limit (--max-file-size)")
    except PermissionError as e:
        return None, Diagnostic(rel, "unreadable", f"permission denied: {e.strerror or e}")
    except IsADirectoryError:
        return None, Diagnostic(rel, "unreadable", "is a directory")
    except OSError as e:
        return None, Diagnostic(rel, "unreadable", e.strerror or str(e))
    return data, None


def decode_python(data: bytes, rel: str) -> tuple[str | None, Diagnostic | None]:
    """Decode source the way Python would: BOM, then a PEP 263 coding cookie, else UTF-8."""
    if b"\x00" in data:
        return None, Diagnostic(rel, "binary", "contains NUL bytes; not a text source file")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        return None, Diagnostic(rel, "undecodable", f"bad coding declaration: {e.msg if hasattr(e, 'msg') else e}")
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as e:
        return None, Diagnostic(rel, "undecodable", f"not valid {encoding}: {e}")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None
