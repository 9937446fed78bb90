"""Autocast switched off in a project that never switches it on (`autocast-never-enabled`).

`with torch.cuda.amp.autocast(enabled=False):` keeps a block in float32 when an outer autocast region is active;
in a project that enables autocast nowhere it is a no-op on every device, and so is `autocast(enabled=X)` where
every assignment of X in the project is the literal False (`args.mixed_precision = False`), as is a module alias
(`autocast = torch.cuda.amp.autocast`) only ever called that way. Such a cuda-amp finding is marked guarded.

The project switches autocast on when any of these holds, and then every finding stays (the Neuron autocast would
not be switched off by a CUDA-only island; stable-audio-tools' `autocast("cuda", enabled=False)` beside Lightning's
"16-mixed"):
- a cuda-amp finding anywhere (configs, notebooks, a GradScaler, `custom_fwd`, Accelerate's "fp16") other than the
  switched-off places above;
- a call or decorator of `autocast` / `GradScaler` in any Python file of the scan whose `enabled=` is not off
  (`torch.autocast(device_type=device.type)` is no finding, but it switches autocast on).

A name X counts as off only when every whole-word occurrence of X in the scanned files is an `enabled=` argument of
an autocast call or an assignment of the literal False (`X = False`, `obj.X = False`, `X: bool = False`, `X=False`
as a keyword): a command-line flag (`"--mixed_precision"`), a config key or a parameter naming it leaves it unknown.

A file below a folder with packaging metadata (`setup.py`, `setup.cfg`, `pyproject.toml`) is library code: its users
may run it under an autocast of their own, and its islands stay (GroundingDINO in Grounded-Segment-Anything, a
blind-labelled hit); a demo or a set of scripts has no such users.
"""
from __future__ import annotations

import ast
import itertools
import re
from dataclasses import replace
from ..astwalk import walk

GUARD = "autocast-never-enabled"
CATEGORY = "cuda-amp"
_SWITCHES = ("autocast", "GradScaler")


def _last(node) -> str:
    while type(node) is ast.Call:
        node = node.func
    return node.attr if type(node) is ast.Attribute else node.id if type(node) is ast.Name else ""


def _enabled(call):
    return next((k.value for k in call.keywords if k.arg == "enabled"), None)


class _File:
    """The autocast calls of one Python file and the names bound to autocast."""

    def __init__(self, tree):
        self.calls: list = []  # (call, line)
        self.aliases: dict = {}  # line of `X = <...>.autocast` / `from m import autocast [as X]` -> X
        for n in walk(tree):
            if isinstance(n, ast.Call) and _last(n.func) in _SWITCHES:
                self.calls.append(n)
            elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                    and _last(n.value) == "autocast" and type(n.value) is not ast.Call:
                self.aliases.setdefault(n.lineno, set()).add(n.targets[0].id)
            elif isinstance(n, ast.ImportFrom):
                for a in n.names:
                    if a.name == "autocast":
                        self.aliases.setdefault(n.lineno, set()).add(a.asname or a.name)
        self.by_line: dict = {}
        for c in self.calls:
            for ln in range(c.lineno, (c.end_lineno or c.lineno) + 1):
                self.by_line.setdefault(ln, []).append(c)


def guard_autocast_never_enabled(findings: list, files: list, read_text, max_bytes: int) -> list:
    """findings with the switched-off autocast places marked guarded when nothing in the project switches autocast
    on. `read_text(source file) -> str or None` reads a Python file; other files (configs, scripts) are read as
    bytes, at most max_bytes, only to count the words of an `enabled=` name."""
    amp = [f for f in findings if f.category == CATEGORY]
    if not amp:
        return findings
    parsed: dict = {}
    python = []  # read again only when a name's words are counted: keeping every text doubled peak memory
    others = []
    for sf in files:
        if sf.kind != "python":
            others.append(sf)
            continue
        text = read_text(sf)
        if not text:
            continue
        python.append(sf)
        if "autocast" in text or "GradScaler" in text:
            try:
                parsed[sf.rel] = got = _File(ast.parse(text))
            except (SyntaxError, ValueError, RecursionError):
                return findings  # a file we cannot read may switch it on
            if any(_surely_on(c) for c in got.calls):
                return findings  # switched on whatever the other files say: the rest need not be parsed
    off_names: dict = {}

    def off(call) -> bool:
        if _last(call.func) != "autocast":
            return False  # a GradScaler is a switch of its own (its disabled form is another predicate's)
        v = _enabled(call)
        if v is None:
            return False
        if type(v) is ast.Constant:
            return v.value is False
        name = v.attr if type(v) is ast.Attribute else v.id if type(v) is ast.Name else None
        if name is None:
            return False
        if name not in off_names:
            off_names[name] = _only_false(name, parsed, (read_text(sf) or "" for sf in python),
                                          (_raw(sf, max_bytes) for sf in others))
        return off_names[name]

    # every autocast / GradScaler call of the project is off
    if not parsed:
        return findings
    for pf in parsed.values():
        if not all(off(c) for c in pf.calls):
            return findings
    guarded = []
    packages = _package_dirs(files)
    for f in findings:
        if f.category != CATEGORY or f.guarded:
            continue
        pf = parsed.get(f.path) if f.cell is None else None
        if pf is None or not all(_place_off(pf, ln, off) for ln, _rule in f.places()):
            return findings  # some cuda-amp finding switches autocast on (or is not an autocast switched off)
        if not _in_package(f.path, packages):
            guarded.append(f)
    ids = {id(f) for f in guarded}
    return [replace(f, guarded=True, guarded_by=GUARD) if id(f) in ids else f for f in findings]


def _surely_on(call) -> bool:
    """A call that is not off (`off` in guard_autocast_never_enabled) whatever the project's other files hold: a
    GradScaler, an autocast without `enabled=`, or with a literal other than False or an expression that is not a
    name."""
    if _last(call.func) != "autocast":
        return True
    v = _enabled(call)
    if v is None:
        return True
    if type(v) is ast.Constant:
        return v.value is not False
    return type(v) not in (ast.Attribute, ast.Name)


def _place_off(pf: _File, line: int, off) -> bool:
    """The line holds autocast calls that are all off, or binds a name to autocast that the file only ever calls
    switched off."""
    calls = pf.by_line.get(line)
    if calls:
        return all(off(c) for c in calls)
    names = pf.aliases.get(line)
    if not names:
        return False
    called = [c for c in pf.calls if type(c.func) is ast.Name and c.func.id in names]
    return bool(called) and all(off(c) for c in called)


def _only_false(name: str, parsed: dict, texts, other_texts) -> bool:
    """Every occurrence of the word in the scanned files is an assignment of the literal False or the
    `enabled=` argument of an autocast call."""
    word = re.compile(rf"(?<![\w]){re.escape(name)}(?!\w)")
    assign = re.compile(rf"(?<![\w]){re.escape(name)}\s*(?::\s*bool\s*)?=\s*False\b")
    uses = 0
    for pf in parsed.values():
        for c in pf.calls:
            v = _enabled(c)
            if v is not None and _last(c.func) == "autocast" and (
                    type(v) is ast.Attribute and v.attr == name or type(v) is ast.Name and v.id == name):
                uses += 1
    total = falses = 0
    for text in itertools.chain(texts, other_texts):
        if name in text:
            total += len(word.findall(text))
            falses += len(assign.findall(text))
    return falses > 0 and total == falses + uses


def _raw(sf, max_bytes: int) -> str:
    from ..read import read_bytes

    data, diag = read_bytes(sf.path, sf.rel, max_bytes)
    return data.decode("utf-8", "replace") if diag is None and data is not None else ""


_PACKAGING = ("setup.py", "setup.cfg", "pyproject.toml")


def _package_dirs(files) -> set:
    """Folders holding packaging metadata: the code below them is a library whose users may call it under an
    autocast of their own (GroundingDINO's `autocast(enabled=False)` around its decoder FFN)."""
    return {sf.rel.rpartition("/")[0] for sf in files if sf.rel.rpartition("/")[2] in _PACKAGING}


def _in_package(rel: str, packages: set) -> bool:
    parts = rel.split("/")[:-1]
    return any("/".join(parts[:i]) in packages for i in range(len(parts) + 1))
