"""Notebooks (.ipynb): cells, IPython magics, and the per-cell scan.

Cell splitting and magic masking live here once; the scanner and `trnready fix` both use
`classify_cell`, so the lines one blanks are exactly the lines the other keeps aside.
Python cells are read by the Python reader, `!cmd` / `%%bash` lines by the shell line matchers,
`%%writefile requirements.txt` cells as the file they write.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from pathlib import Path

from ..filekinds import comments, kind_of
from ..model import Diagnostic, Finding, Occurrences
from .context import FileContext, ReadResult, Source
from .emit import Emitter, emit_deps, emit_pyreqs
from .lines import emit_lines, shell_deps, shell_pyreqs
from ..astwalk import walk

_MAGIC_LINE = re.compile(r"^(\s*)(?:[\w.,\s\[\]()]+=\s*)?[!%]")
_HELP_LINE = re.compile(r"^\s*(?:\?{1,2}[\w.]+|[\w.]+(?:\(\))?\?{1,2})\s*$")
_SHELL_CELL_MAGICS = ("%%bash", "%%sh", "%%script bash", "%%script sh", "%%shell", "%%system")
_PY_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun", "%%memit", "%%debug")

# What classify_cell says about a line (0-based index -> mark).
CELL_MAGIC = "cell-magic"  # the `%%time` line of a Python cell
MAGIC = "magic"  # a `!cmd` / `%magic` line: a statement, shell text
CONTINUATION = "continuation"  # a line continuing a magic line with a trailing backslash
HELP = "help"  # `obj?` / `??obj`


def notebook_cells(text: str):
    """-> (cells [(index, cell_type, source)], error message or None)."""
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError) as e:
        return [], f"not valid notebook JSON: {e}"
    if not isinstance(nb, dict):
        return [], "not a notebook: the top level is not a JSON object"
    cells = nb.get("cells")
    if cells is None and isinstance(nb.get("worksheets"), list) and nb["worksheets"]:
        ws = nb["worksheets"][0]
        cells = ws.get("cells") if isinstance(ws, dict) else None  # nbformat 3
    if not isinstance(cells, list):
        return [], "not a notebook: no `cells` list"
    out = []
    for i, c in enumerate(cells):
        if not isinstance(c, dict):
            continue
        src = c.get("source", c.get("input", ""))
        if isinstance(src, list):
            src = "".join(s for s in src if isinstance(s, str))
        if not isinstance(src, str):
            continue
        out.append((i, c.get("cell_type", "code"), src))
    return out, None


def classify_cell(src: str) -> tuple[str, dict[int, str]]:
    """A code cell -> (mode, {0-based line index: mark}) for the lines that are not Python.

    mode is "python", "shell" (%%bash-style cells: every line after the first is shell) or "skip" (other
    cell magics: %%html, %%writefile x.txt...).
    """
    lines = src.splitlines()
    marks: dict[int, str] = {}
    if not lines:
        return "python", marks
    first = lines[0].strip()
    start = 0
    if first.startswith("%%"):
        if first.startswith(_SHELL_CELL_MAGICS):
            return "shell", {n: MAGIC for n in range(1, len(lines))}
        if not (first.startswith(_PY_CELL_MAGICS) or (first.startswith("%%writefile") and first.endswith(".py"))):
            return "skip", marks
        marks[0] = CELL_MAGIC
        start = 1
    cont = False
    for n in range(start, len(lines)):
        ln = lines[n]
        if cont or (_MAGIC_LINE.match(ln) and not ln.strip().startswith(("%=", "!="))):
            marks[n] = CONTINUATION if cont else MAGIC
            cont = ln.rstrip().endswith("\\")
        elif _HELP_LINE.match(ln):
            marks[n] = HELP
    return "python", marks


def split_cell(src: str):
    """A code cell -> (python text with magics blanked, shell line numbers (1-based), mode).

    Blanked lines become `pass` at the same indentation, so line numbers and blocks stay intact.
    """
    mode, marks = classify_cell(src)
    lines = src.splitlines()
    shell = {n + 1 for n, mark in marks.items() if mark in (MAGIC, CONTINUATION)}
    if mode != "python":
        return "", shell, mode
    out = []
    for n, ln in enumerate(lines):
        mark = marks.get(n)
        if mark in (MAGIC, HELP):
            out.append(re.match(r"^\s*", ln).group(0) + "pass")
        elif mark is None:
            out.append(ln)
        else:
            out.append("")
    return "\n".join(out), shell, "python"


def _only(lines: list[str], keep: set) -> str:
    """The text with every line outside `keep` (1-based) blanked, so line numbers stay."""
    return "\n".join(ln if n in keep else "" for n, ln in enumerate(lines, 1))


def read(ctx: FileContext) -> ReadResult:
    text, rel = ctx.text, ctx.rel
    cells, error = notebook_cells(text)
    if error:
        return ReadResult([], Diagnostic(rel, "malformed-notebook", error), [])
    # JSON may spell lone surrogates (\\ud800) that no UTF-8 output can carry: each becomes U+FFFD,
    # one character for one, so columns stay right.
    surrogates = [i for i, _, src in cells if not src.isascii() and _LONE_SURROGATE.search(src)]
    if surrogates:
        cells = [(i, t, _LONE_SURROGATE.sub("\ufffd", src)) for i, t, src in cells]
    result = _read_cells(ctx, cells)
    if surrogates:
        note = (f"lone surrogate code points in cell{'s' if len(surrogates) > 1 else ''} "
                f"{', '.join(str(i + 1) for i in surrogates[:5])} replaced with U+FFFD")
        result.diag = Diagnostic(rel, "invalid-text", note) if result.diag is None else replace(
            result.diag, message=f"{result.diag.message}; {note}")
    return result


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _read_cells(ctx: FileContext, cells) -> ReadResult:
    from .python import parse

    text, rel, engine = ctx.text, ctx.rel, ctx.engine
    em = Emitter(rel)
    sources: list[Source] = []
    code_cells = [(i, src) for i, t, src in cells if t == "code" and src.strip()]
    mention = text
    parsed = 0
    bad: list = []
    partial: list = []  # cells scanned up to the statement holding their syntax error
    python_cells: list = []  # (cell index, text scanned, syntax tree, original lines), in notebook order
    for i, src in code_cells:
        py, shell, mode = split_cell(src)
        lines = src.splitlines()
        written = _writefile_kind(lines[0]) if lines else None
        if written is not None:  # %%writefile requirements.txt / Dockerfile / run.sh: scan the body as that file
            parsed += 1
            found = ctx.read_as(FileContext("\n".join(lines[1:]), rel, written, engine, read_as=ctx.read_as)).findings
            em.out.extend(replace(f, line=f.line + 1, end_line=f.end_line + 1, cell=i) for f in found)
            if comments(written):
                sources.append(Source(_only(lines, set(range(2, len(lines) + 1))), comments(written), cell=i))
            continue
        if shell:
            emit_lines("shell", lines, engine, em, mention, cell=i, only=shell)
            emit_deps(shell_deps(lines, only=shell), lines, engine, em, mention, cell=i)
            emit_pyreqs(shell_pyreqs(lines, only=shell, interpreters=True), lines, engine, em, mention, cell=i)
            em.out.extend(_shell_program_findings(lines, shell, rel, engine, i))
            sources.append(Source(_only(lines, shell), comments("shell"), cell=i))
        if mode != "python":
            parsed += 1
            continue
        scanned, (tree, diag) = py, parse(py, rel)
        if diag is not None and py != src:
            # a `%` or `!` at the start of a continuation line can be Python (`x = (a\n % b)`)
            first = diag
            scanned, (tree, diag) = src, parse(src, rel)
            diag = first if diag is not None else None
        if diag is not None:  # one cell with a syntax error does not stop the rest of the notebook
            kept = _parsed_prefix(py, rel, diag)
            if kept is None:
                bad.append((i, diag.message))
                continue
            scanned, tree, upto = kept
            partial.append((i, f"{diag.message}; lines 1-{upto} scanned"))
        parsed += 1
        sources.append(Source(scanned, ("python",), cell=i, tree=tree))
        python_cells.append((i, scanned, tree, lines))
    findings, diag = _scan_namespace(python_cells, rel, engine)
    if diag is not None:
        bad.append((python_cells[0][0] if python_cells else 0, diag.message))
    em.out.extend(findings)
    diag = None
    if code_cells and not parsed:
        diag = Diagnostic(rel, "syntax-error", "no code cell of the notebook parses as Python")
    elif bad or partial:
        said = []
        for cells_, what in ((bad, "not scanned as Python"), (partial, "scanned only before a syntax error")):
            if cells_:
                where = "; ".join(f"cell {i}: {msg}" for i, msg in cells_[:5]) \
                    + (f"; ... ({len(cells_)} cells)" if len(cells_) > 5 else "")
                said.append(f"{len(cells_)} code cell{'s' if len(cells_) != 1 else ''} {what} ({where})")
        diag = Diagnostic(rel, "cell-syntax-error", "; ".join(said) + "; the other cells were scanned")
    # The notebook's own JSON (its metadata: a `"kernelspec"` naming a Python 2 kernel) is read by the line matchers
    # that name the notebook kind; cell sources in that text are quoted JSON strings, which those matchers skip.
    emit_lines("notebook", text.splitlines(), engine, em, mention)
    # shell lines (`!pip install ...`) are read even when no cell parses as Python (a Python 2 notebook)
    return ReadResult(em.out, diag, sources)


def _shell_program_findings(lines: list[str], shell: set, rel: str, engine, cell: int) -> list:
    """What the shell lines of a cell run: `!python -c '...'` programs (readers/inline_python.py) and the flags of
    launch commands (`!python finetune.py --deepspeed ds.json`, readers/launch_args.py), as in a shell script."""
    from .configs import setting_findings
    from .inline_python import inline_python_findings
    from .launch_args import one_per_rule, launch_entries
    from .lines import quiet_echo

    out = inline_python_findings(lines, rel, engine, only=shell, cell=cell, prefix="!")
    # the shell lines only, `!` turned into a space (same columns), the rest blanked (same line numbers)
    text = [re.sub(r"^(\s*)!", r"\1 ", ln) if n in shell else "" for n, ln in enumerate(lines, 1)]
    if not any(ln.strip() for ln in text):
        return out
    entries = launch_entries(quiet_echo("\n".join(text)).splitlines())
    if entries:
        em = Emitter(rel)
        setting_findings(entries, "config", lines, engine, em, rel)
        out += [replace(f, cell=cell) for f in one_per_rule(em.out)]
    return out


def _scan_namespace(python_cells, rel: str, engine):
    """Scan the Python cells as one module, in order: a kernel runs them in one namespace, so an import
    or a value bound in an earlier cell is what a later cell's name means. Each cell keeps its own
    tree and cell-relative lines; the trees are shifted onto one line axis only while they are indexed
    and matched, then shifted back, and each finding is reported in its cell."""
    from .python import findings_from_hits, hits_for_tree

    if not python_cells:
        return [], None
    offsets, body, at = [], [], 0
    for _, text, tree, _ in python_cells:
        offsets.append(at)
        if at:
            ast.increment_lineno(tree, at)
        body.extend(tree.body)
        at += len(text.splitlines()) + 1
    try:
        hits = hits_for_tree(ast.Module(body=body, type_ignores=[]), engine, rel)
        diag = None
    except RecursionError:
        hits, diag = [], Diagnostic(rel, "too-complex", "nesting too deep to analyse")
    finally:
        for at, (_, _, tree, _) in zip(offsets, python_cells):
            if at:
                ast.increment_lineno(tree, -at)
    # after the shift back, a node's line is relative to its cell; which cell holds it is known
    # from the statement it sits in
    owner = {}
    for n, (_, _, tree, _) in enumerate(python_cells):
        for node in walk(tree):
            owner[id(node)] = n
    per_cell: dict[int, list] = {}
    for h in hits:
        cell = owner.get(id(h.node), -1)
        if h.also:  # places listed with a finding are lines of its own cell (an import in an earlier cell is not)
            h = replace(h, also=tuple(a for a in h.also if owner.get(id(a), -1) == cell))
        per_cell.setdefault(cell, []).append(h)
    out = []
    # Repeats of identical code are numbered across the notebook, not per cell: a fingerprint names one finding
    # of the file (the first of a repeated line keeps the fingerprint it had when each cell was numbered apart).
    repeats = Occurrences()
    for n, (i, text, tree, lines) in enumerate(python_cells):
        for f in findings_from_hits(per_cell.get(n, []), text.splitlines(), rel, cell=i, tree=tree,
                                    occurrences=repeats):
            # snippets come from the original cell text, not the blanked copy
            snip = lines[f.line - 1] if 0 < f.line <= len(lines) else f.snippet
            out.append(f if snip == f.snippet else _replace_snippet(f, snip))
    return out, diag


_ERROR_LINE = re.compile(r"^line (\d+):")


def _parsed_prefix(text: str, rel: str, diag: Diagnostic):
    """(text, tree, last line) of the top-level statements of a cell before the one holding its syntax error, the
    rest blanked (line numbers stay), or None. A committed notebook's setup cell with one broken block (TIDAL's
    `try:` left without its handler) still imports NumPy and picks the device for the cells after it: what those
    cells' names mean, and lines a port changes. Tries the last few statement starts above the error only."""
    from .python import parse

    m = _ERROR_LINE.match(diag.message)
    if m is None:
        return None
    lines = text.splitlines()
    error = min(int(m.group(1)), len(lines))
    starts = [n for n in range(error - 1, 0, -1)
              if lines[n - 1][:1] not in ("", " ", "\t", "#", ")", "]", "}")][:3]
    for start in starts:
        upto = start - 1
        if not any(x.strip() and not x.lstrip().startswith("#") for x in lines[:upto]):
            return None
        kept = "\n".join(lines[:upto] + [""] * (len(lines) - upto))
        tree, bad = parse(kept, rel)
        if bad is None:
            return kept, tree, upto
    return None


def _replace_snippet(f: Finding, snippet: str) -> Finding:
    return replace(f, snippet=snippet.rstrip("\r\n"))


def _writefile_kind(first: str):
    """`%%writefile [-a] requirements.txt` -> the non-Python kind of the file the cell writes, else None."""
    m = re.match(r"^\s*%%writefile\s+(?:-a\s+|--append\s+)?[\"']?([^\s\"']+)", first)
    if not m:
        return None
    kind = kind_of(Path(m.group(1)).name)
    return kind if kind not in (None, "python", "notebook") else None
