"""A file on disk -> decoded text, or a Diagnostic saying why not."""
from __future__ import annotations

import io
import tokenize
from pathlib import Path

from .model import Diagnostic

DEFAULT_MAX_BYTES = 5 * 1024 * 1024


def read_bytes(path: Path, rel: str, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes | None, Diagnostic | None]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except PermissionError as e:
        return None, Diagnostic(rel, "unreadable", f"permission denied: {e.strerror or e}")
    except IsADirectoryError:
        return None, Diagnostic(rel, "unreadable", "is a directory")
    except OSError as e:
        return None, Diagnostic(rel, "unreadable", e.strerror or str(e))
    if len(data) > max_bytes:
        return None, Diagnostic(rel, "too-large", f"larger than the {max_bytes:,}-byte limit (--max-file-size)")
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
