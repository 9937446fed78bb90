"""Shell variables a launcher takes from a config script it sources.

A launcher often keeps its sizes in a config script of the repository and reads them after sourcing it:

```sh
# scripts/evaluate.sh                                  # configs/model_large.sh
source "${main_dir}/configs/model_large.sh"            MP_SIZE=8
torchrun --nproc_per_node $MP_SIZE evaluate.py         MODEL_ARGS="--model-parallel-size ${MP_SIZE}"
```

`$MP_SIZE` is then as much a literal of the launcher as if it were assigned in it. The variables a sourced script
assigns exactly once, to a literal, are put in like the launcher's own (readers/lines.py `_literal_variables`), as set
at the `source` line (the place the finding lists: the line that brings the value in). One level only (a sourced
script's own `source` lines are not followed), files of the scanned tree only, and a variable the launcher assigns
itself is its own. A path with variables (`"${main_dir}/configs/x.sh"`, `$(dirname $0)/env.sh`) is resolved by its
literal tail, tried below the launcher's folder and each folder above it up to the scanned root: the variables in
front of the tail are the script's or the repository's folder in practice, and nothing is guessed when no such file
exists. The result cache keys a launcher on the size and time of the files it sources (readers/deps.py).
"""
from __future__ import annotations

import re
from pathlib import Path

MAX_BYTES = 64 * 1024  # a config script is a few lines; a large one is not a config
_SOURCE = re.compile(r"^\s*(?:source|\.)\s+(?P<arg>\"[^\"]+\"|'[^']+'|[^\s;&|]+)\s*(?:[;#].*)?$")
_VAR = re.compile(r"\$(?:\{[^}]*\}|\([^)]*\)|[A-Za-z_]\w*)")


def _root(path: Path, rel: str) -> Path:
    return path.parents[rel.count("/")]


def sourced_files(lines: list[str], path, rel: str) -> list:
    """(line, file) of each `source FILE` / `. FILE` of the script that names a file of the scanned tree."""
    if path is None:
        return []
    path = Path(path)
    try:
        root = _root(path, rel).resolve()
    except (IndexError, OSError):
        return []
    out = []
    for n, ln in enumerate(lines, 1):
        if "source" not in ln and not ln.lstrip().startswith(". "):
            continue
        m = _SOURCE.match(ln)
        if m is None:
            continue
        arg = m.group("arg").strip("\"'")
        parts = _VAR.split(arg)
        tail = parts[-1]
        if len(parts) > 1 and not tail.startswith("/"):
            continue  # `${CONFIG}` or `$dir/$name.sh`: the file's name itself is a variable
        tail = tail.lstrip("/")
        if not tail or arg.startswith("/") or ".." in tail.split("/"):
            continue
        folder = path.parent
        found = None
        while True:
            cand = folder / tail
            try:
                if cand.is_file() and cand.resolve().is_relative_to(root):
                    found = cand
                    break
            except OSError:
                break
            if folder.resolve() == root or folder == folder.parent:
                break
            folder = folder.parent
        if found is not None and found.resolve() != path.resolve():
            out.append((n, found))
    return out


def sourced_literals(lines: list[str], path, rel: str, literals) -> dict:
    """name -> (value, source line, 1) of the literals the scripts the launcher sources assign once each;
    `literals`: lines -> {name: (value, line, col)} of one script (readers/lines.py, which calls this)."""
    out: dict = {}
    for n, file in sourced_files(lines, path, rel):
        try:
            if file.stat().st_size > MAX_BYTES:
                continue
            text = file.read_text("utf-8", errors="replace")
        except OSError:
            continue
        theirs = text.splitlines()
        for name, (value, _ln, _col) in literals(theirs).items():
            out.setdefault(name, (value, n, 1))
    return out


def sourced_stat(path, rel: str) -> tuple:
    """(name, mtime_ns, size) of the files a shell script sources, for the result cache's key."""
    if path is None:
        return ()
    try:
        if Path(path).stat().st_size > 1024 * 1024:
            return ()
        text = Path(path).read_text("utf-8", errors="replace")
    except OSError:
        return ()
    if "source" not in text and ". " not in text:
        return ()
    out = []
    for _n, file in sourced_files(text.splitlines(), path, rel):
        try:
            st = file.stat()
        except OSError:
            continue
        out.append((str(file), st.st_mtime_ns, st.st_size))
    return tuple(out)
