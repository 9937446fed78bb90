"""Python run inline by a shell command: `python -c '...'` / `python3 -c "..."` in a shell script or a notebook
`!` line.

`GPUS_PER_NODE=$(python -c 'import torch; print(torch.cuda.device_count())')` is Python: its code is read by
the Python reader and each finding is reported at the shell line, at the columns the code has there. Only code
that starts and ends on one line is read (a quoted program spanning lines is rare and cannot be told apart
from an unclosed quote); code that does not parse (a `$VAR` the shell substitutes first, Python 2) is left
alone without a diagnostic: the file is a shell script, not Python.

When the shell captures the program's output (`$(python -c ...)`, backquotes), what it prints is a value the
script goes on to use (`torchrun --nproc_per_node $GPUS_PER_NODE`). A CUDA query such a program prints is
therefore used, whatever the Python context says about a query that is only printed: findings guarded by
`check-without-placement` are reported.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import replace

# `python`, `python3`, `python3.10`, `/usr/bin/env python3`, with options before `-c` (`-u`, `-W ignore`).
# Also the interpreter a script keeps in a variable (`${PYTHON} -c "..."`, `$PY -c ...`, `$VENV_PY -c ...`,
# `${CONDA_PYTHON} -c ...`).
_INLINE = re.compile(r"(?:(?<![\w.-])(?:[\w./-]*/)?python(?:\d+(?:\.\d+)?)?"
                     r"|\$\{?(?:[A-Z_]*PYTHON\w*|(?:[A-Z_]*_)?PY\d?)\}?)[ \t]+"
                     r"(?:-[A-Za-z]+[ \t]+)*?-c[ \t]*(?P<q>[\"'])")
# Guards that argue from the value not being used: the shell capturing the output uses it.
_UNUSED_VALUE_GUARDS = frozenset({"check-without-placement"})
_DQ_ESCAPES = frozenset('"\\$`')
_MAX_PROGRAM_LINES = 200  # lines read below an opening quote before the program is taken as unclosed


def _code(line: str, start: int, quote: str):
    """The quoted program starting after `start` -> (code, column in `line` of each code character), or None
    when the quote does not close on this line."""
    chars: list[str] = []
    cols: list[int] = []
    i = start
    while i < len(line):
        ch = line[i]
        if ch == quote:
            return "".join(chars), cols
        if quote == '"' and ch == "\\" and i + 1 < len(line) and line[i + 1] in _DQ_ESCAPES:
            i += 1  # `\"` inside double quotes is one `"` for Python
            ch = line[i]
        chars.append(ch)
        cols.append(i)
        i += 1
    return None


def _captured(line: str, at: int) -> bool:
    before = line[:at].rstrip()
    return before.endswith("$(") or before.endswith("`")


def inline_python_findings(lines: list[str], rel: str, engine, only: set | None = None, cell=None,
                           prefix: str = "") -> list:
    """Findings of the Python programs passed with -c on `lines` (1-based numbers in `only` when given);
    `prefix`: characters that start a shell line of the file (`!` in a notebook cell)."""
    from .lines import quiet_echo
    from .python import scan_python

    out = []
    for n, raw in enumerate(lines, 1):
        if (only is not None and n not in only) or "-c" not in raw or ("python" not in raw.lower() and "PY" not in raw):
            continue
        ln = quiet_echo(raw)  # `echo "python -c '...'"` prints a hint (same length: columns stay)
        body = ln.lstrip()
        if body.startswith("#") and not (prefix and body.startswith(prefix)):
            continue
        for m in _INLINE.finditer(ln):
            hash_at = ln.find(" #")
            if 0 <= hash_at < m.start():
                break  # the rest of the line is a comment
            got = _code(ln, m.end(), m.group("q"))
            if got is None:
                out.extend(_program_below(lines, n, ln, m, rel, engine, only, cell))
                continue
            code, cols = got
            if not code.strip() or "\n" in code:
                continue
            found, diag, _ = scan_python(code, rel, engine, cell=cell)
            if diag is not None:
                continue
            used = _captured(ln, m.start())
            for f in found:
                if f.line != 1 or not cols:
                    continue
                a = cols[min(max(f.column - 1, 0), len(cols) - 1)]
                b = cols[min(max(f.end_column - 2, 0), len(cols) - 1)] + 1
                guarded = f.guarded and not (used and f.guarded_by in _UNUSED_VALUE_GUARDS)
                out.append(replace(f, line=n, end_line=n, column=a + 1, end_column=b + 1, snippet=raw.strip(),
                                   cell=cell, fixable=False, context=(), occurrences=(), guarded=guarded,
                                   guarded_by=f.guarded_by if guarded else ""))
    return out


def _program_below(lines: list[str], n: int, ln: str, m, rel: str, engine, only, cell) -> list:
    """`python -c "` ending line n, the program on the lines below up to one starting with the closing quote
    (`" 2>&1 | tee -a log`): a GPU inventory a launcher prints. Read only when no line of the program holds that
    quote (an escaped or nested one would need the shell's rules), each finding at its own line and column."""
    from .python import scan_python

    quote = m.group("q")
    if ln[m.end():].strip() or n >= len(lines):
        return []
    body: list[str] = []
    for k in range(n, min(len(lines), n + _MAX_PROGRAM_LINES)):
        text = lines[k]
        if text.lstrip().startswith(quote):
            break
        if quote in text or (only is not None and k + 1 not in only):
            return []
        body.append(text)
    else:
        return []
    if not "".join(body).strip():
        return []
    code = "\n".join(body)
    found, diag, _ = scan_python(textwrap.dedent(code), rel, engine, cell=cell)
    if diag is not None:
        return []
    shift = min(len(t) - len(t.lstrip()) for t in body if t.strip())
    used = _captured(ln, m.start())
    first: dict = {}  # rule -> index in out: one finding per rule for the program, its other lines as places
    out: list = []
    for f in sorted(found, key=lambda f: (f.line, f.column)):
        line = n + f.line
        guarded = f.guarded and not (used and f.guarded_by in _UNUSED_VALUE_GUARDS)
        if not guarded and f.rule in first:
            kept = out[first[f.rule]]
            out[first[f.rule]] = replace(kept, occurrences=(*kept.occurrences, (line, f.column + shift, f.rule)))
            continue
        if not guarded:
            first[f.rule] = len(out)
        out.append(replace(f, line=line, end_line=line, column=f.column + shift, end_column=f.end_column + shift,
                           snippet=lines[line - 1].strip(), cell=cell, fixable=False, context=(), occurrences=(),
                           guarded=guarded, guarded_by=f.guarded_by if guarded else ""))
    return out
