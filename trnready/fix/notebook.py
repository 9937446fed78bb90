"""Notebooks: each Python code cell is rewritten like a file, its IPython magics kept verbatim."""
from __future__ import annotations

import json
from pathlib import Path

from ..config import Config
from ..match import Engine
from ..model import Finding
from ..readers.notebook import HELP, MAGIC, classify_cell
from .model import FileFix
from .python import fix_text, module_aliases_of


# -- notebooks ------------------------------------------------------------------------
# Findings in a notebook carry `cell` (index in the cells list) and cell-relative lines, computed on
# the cell's code with IPython magics, shell escapes and help lines replaced by `pass` (the notebook
# reader blanks them the same way, so positions agree). Here each such line becomes `pass` plus a
# marker comment, the cell is rewritten like a file, and the marked lines are put back verbatim.

_MARK = "# trnready-fix-kept-line-"


def mask_cell(src: str):
    """A code cell -> (Python text with magic lines marked, {marker: original line}) or None
    for cells that are not Python (%%bash, %%html, ...). Which lines are magics: readers/notebook.py."""
    mode, marks = classify_cell(src)
    if mode != "python":
        return None
    kept: dict = {}
    out = []
    for n, ln in enumerate(src.splitlines(keepends=True)):
        if n not in marks:
            out.append(ln)
            continue
        body = ln.rstrip("\r\n")
        marker = f"{_MARK}{n}"
        kept[marker] = body
        indent = body[:len(body) - len(body.lstrip())]
        out.append(f"{indent}{'pass  ' if marks[n] in (MAGIC, HELP) else ''}{marker}{ln[len(body):]}")
    return "".join(out), kept


def unmask_cell(text: str, kept: dict):
    """Put the marked lines back; None if a marker went missing or moved into other code."""
    out = []
    seen = set()
    for ln in text.splitlines(keepends=True):
        body = ln.rstrip("\r\n")
        i = body.find(_MARK)
        if i >= 0:
            marker = body[i:]
            if marker not in kept or body[:i].strip() not in ("", "pass"):
                return None
            seen.add(marker)
            ln = kept[marker] + ln[len(body):]
        out.append(ln)
    return "".join(out) if seen == set(kept) else None


def _notebook_dumper(nb, text: str):
    """The json.dumps settings that reproduce `text` exactly (nbformat writes indent=1, sorted keys)."""
    for indent in (1, 2, 4, None):
        for sort_keys in (True, False):
            for ensure_ascii in (False, True):
                def dump(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii):
                    return json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
                out = dump(nb)
                for tail in ("\n", "", "\r\n"):
                    if out + tail == text:
                        return lambda obj, dump=dump, tail=tail: dump(obj) + tail
    return None


def fix_notebook(path: Path, rel: str, findings: list[Finding], engine: Engine, config: Config,
                  style: str) -> FileFix:
    ff, data = FileFix.read(path, rel, config.max_file_size)
    if data is None:
        return ff
    try:
        text = data.decode("utf-8")
        nb = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        ff.error = f"not a readable notebook: {e}"
        return ff
    ff.data, ff.old, ff.new = data, text, text
    dump = _notebook_dumper(nb, text)
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if cells is None and isinstance(nb, dict) and isinstance(nb.get("worksheets"), list) and nb["worksheets"]:
        cells = nb["worksheets"][0].get("cells") if isinstance(nb["worksheets"][0], dict) else None
    if dump is None or not isinstance(cells, list):
        ff.error = "the notebook's JSON layout is not one fix can write back unchanged; not rewritten"
        return ff
    aliases: dict = {}  # cells share one namespace: an import in any code cell counts
    for c in cells:
        src = c.get("source", c.get("input")) if isinstance(c, dict) and c.get("cell_type", "code") == "code" else None
        if isinstance(src, list) and all(isinstance(x, str) for x in src):
            src = "".join(src)
        masked = mask_cell(src) if isinstance(src, str) else None  # a malformed cell contributes nothing
        if masked is not None:
            for k, v in module_aliases_of(masked[0]).items():  # a cell that does not parse adds nothing
                aliases.setdefault(k, v)
    by_cell: dict = {}
    for f in findings:
        by_cell.setdefault(f.cell, []).append(f)
    for i, fs in sorted(by_cell.items(), key=lambda kv: -1 if kv[0] is None else kv[0]):
        cell = cells[i] if isinstance(i, int) and 0 <= i < len(cells) else None
        key = "source" if isinstance(cell, dict) and "source" in cell else "input"
        src = cell.get(key) if isinstance(cell, dict) and cell.get("cell_type", "code") == "code" else None
        as_list = isinstance(src, list)
        if as_list and all(isinstance(x, str) for x in src):
            src = "".join(src)
        masked = mask_cell(src) if isinstance(src, str) else None
        if masked is None:
            ff.left.extend((f, "not a Python code cell fix can edit") for f in fs)
            continue
        code, kept = masked
        new, applied, left, error = fix_text(code, rel, fs, engine, style, cell=i, aliases=aliases)
        ff.left.extend(left)
        if error:
            ff.left.extend((f, error) for f in fs)
            continue
        restored = unmask_cell(new, kept)
        if restored is None:
            ff.left.extend((f, "the cell's magic lines could not be kept; not rewritten") for f in fs)
            continue
        if applied:
            cell[key] = restored.splitlines(keepends=True) if as_list else restored
            ff.applied.extend(applied)
    if ff.applied:
        ff.new = dump(nb)
    return ff

