"""Report step backend-reads: the process-group call that reads a configured NCCL backend is a place of the finding
that configures it.

`_C.DIST_BACKEND = "nccl"` in yacs defaults, `"dist_backend": "nccl"` in a JSON training config, `config.dist_backend
= 'nccl'` in a training script: TRN271 reports the setting where it is written. The program hands the value on
elsewhere, `torch.distributed.init_process_group(backend=cfg.DIST_BACKEND)` (pycls), `dist.init_process_group(
dist_backend, ...)` in a helper that takes the config's `dist_config` section by name (waveglow),
`init_process_group(backend=config.dist_backend, ...)` in a utility module (ZoeDepth). That call is where the NCCL
process group is made, and where a port that keeps the config passes "neuron" instead, so it is a place of the same
finding (`elsewhere`, named in its message), not a finding of its own: one thing to change, two places to look.

The key comes from the reported line itself (`KEY: "nccl"`, `KEY = "nccl"`, `"KEY": "nccl"`, `x.KEY = 'nccl'`) and
must name a backend more specifically than `backend` alone (a bare `backend` is read under that name by too many
unrelated options); a call's backend (its `backend=` keyword, else its first positional argument) must be a name or
an attribute chain whose last part is exactly that key. A literal (`backend="nccl"`) is reported by TRN271 itself.
Each call is a place of one finding: the first, in report order, that sets its key; a call whose lines already
hold a place of a distributed-backend finding (an option default's `read at ...`) is left to it. A call in the file
that sets the key (`args.dist_backend = 'nccl'` three lines above `init_process_group(backend=args.dist_backend)`)
is not added: the finding already points there, and the write is the one line to change. Nor is a call in a file
that declares the key as a command-line option (`parser.add_argument("--dist_backend", default="gloo")` then
`init_process_group(args.dist_backend)`): the value is that option's, whose default TRN271 judges itself.

Cheap: nothing runs unless such a finding exists; then only the Python files whose text holds
`init_process_group` are searched, with regular expressions (never parsed).
"""
from __future__ import annotations

import re
from dataclasses import replace

CATEGORY = "distributed-backend"
_SET = re.compile(r"""(?<![\w])["']?(?P<key>[A-Za-z_]\w*)["']?\s*[:=]\s*["']nccl["']""", re.I)
_CALL = re.compile(r"\binit_process_group\s*\(")
_CHAIN = r"(?P<chain>[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*(?:,|$)"
_KEYWORD = re.compile(r"(?<![\w.])backend\s*=\s*" + _CHAIN)
_FIRST = re.compile(r"^\s*" + _CHAIN)
# `parser.add_argument("--dist_backend", default="gloo")`: options the file reads from its command line
_OPTION = re.compile(r"""add_argument\s*\(\s*["'](?:--?)?(?P<name>[A-Za-z][\w-]*)["']""")
MAX_ARGS = 2000  # characters of a call's arguments read
MAX_NAMED = 3  # call places named in the finding's message


def _key(snippet: str) -> str | None:
    """The backend key a reported line sets to nccl, or None (no such assignment, or a key too generic)."""
    m = _SET.search(snippet or "")
    if m is None:
        return None
    key = m.group("key")
    return key if "backend" in key.lower() and key.lower() != "backend" else None


def _arguments(text: str, start: int) -> str:
    """The text between a call's parentheses (`start` just after the opening one), strings not looked into."""
    depth = 1
    end = min(len(text), start + MAX_ARGS)
    for i in range(start, end):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return text[start:end]


def _read_key(args: str) -> str | None:
    """The last part of the name or attribute chain passed as the backend, or None (a literal, a call, ...)."""
    m = _KEYWORD.search(args)
    if m is None:
        first = _FIRST.match(args)
        if first is None or "=" in args[:first.end()].split(",", 1)[0]:
            return None
        m = first
    return re.split(r"\s*\.\s*", m.group("chain"))[-1]


def _calls(text: str) -> list:
    """(line, column, last line, key read) of each `init_process_group(...)` call whose backend is read from a
    name."""
    out = []
    for m in _CALL.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if "#" in text[line_start:m.start()]:
            continue  # commented out (or a `#` in a string before it: skipped too, rarely)
        args = _arguments(text, m.end())
        key = _read_key(args)
        if key is not None:
            line = text.count("\n", 0, m.start()) + 1
            out.append((line, m.start() - line_start + 1, line + args.count("\n"), key))
    return out


def backend_reads(findings: list, files: list, read_text) -> list:
    """Each project call `init_process_group(backend=<...>.KEY)` becomes a place (`elsewhere`) of the first
    unguarded, unsuppressed distributed-backend finding whose line sets KEY to nccl."""
    owner: dict = {}  # key -> index of the finding that sets it
    for i in sorted(range(len(findings)), key=lambda k: findings[k].sort_key()):
        f = findings[i]
        if f.category != CATEGORY or f.guarded or f.suppressed:
            continue
        key = _key(f.snippet)
        if key is not None:
            owner.setdefault(key, i)
    if not owner:
        return findings
    # places the category's findings already list (an option default's reads: `read at ...`): a call holding one
    # is that finding's, not added again to another
    listed = {(f.path, ln) for f in findings if f.category == CATEGORY for ln, _r in f.places()}
    listed |= {(p, ln) for f in findings if f.category == CATEGORY for p, ln, _c, _r in f.elsewhere}
    places: dict = {}  # index -> [(path, line, column, rule)]
    for sf in files:
        if sf.kind != "python":
            continue
        text = read_text(sf)
        if not text or "init_process_group" not in text:
            continue
        options = {m.group("name").replace("-", "_") for m in _OPTION.finditer(text)}
        for line, col, last, key in _calls(text):
            at = owner.get(key)
            if at is None or any((sf.rel, ln) in listed for ln in range(line, last + 1)):
                continue
            if key in options:
                continue  # the file's own command-line option (`--dist_backend`, default "gloo"): not the config's
            f = findings[at]
            if f.path == sf.rel or any(p == sf.rel and ln == line for p, ln, _c, _r in f.elsewhere):
                continue  # a read in the file that sets the key sits next to the finding already
            places.setdefault(at, []).append((sf.rel, line, col, f.rule))
    if not places:
        return findings
    out = list(findings)
    for i, found in places.items():
        f = out[i]
        found.sort()
        shown = ", ".join(f"{p}:{ln}" for p, ln, _c, _r in found[:MAX_NAMED])
        more = f" and {len(found) - MAX_NAMED} more" if len(found) > MAX_NAMED else ""
        out[i] = replace(f, elsewhere=tuple(dict.fromkeys((*f.elsewhere, *found))),
                         message=f"{f.message}; the process group is made from it at {shown}{more}")
    return out
