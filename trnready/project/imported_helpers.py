"""Link step `imported-helper`: a finding the `guarded-helper` predicate guarded (a private module-level function its
file calls only from code Neuron never runs) is put back when another scanned file names that function (`from
.utils import _infer_nvidia_arch`, a call through the module): that caller was not judged. A test module naming it
does not count: it unit-tests the helper with its own mocks (Liger's `test_utils.py` monkeypatches
`torch.cuda.get_device_capability`) and runs no path of the library. Only the files' text is read, and only when
such a finding exists."""
from __future__ import annotations

import re
from dataclasses import replace

from ..scope import classify
from .unreferenced import _word_at, top_definitions

REASON = "guarded-helper"


def unguard_imported_helpers(findings: list, files, text_of) -> list:
    """`text_of(rel)`: a scanned Python file's text or None. A finding whose helper another file names loses the
    guard (Markdown and other kinds of files do not call it)."""
    held = [i for i, f in enumerate(findings) if f.guarded and f.guarded_by == REASON and f.cell is None]
    if not held:
        return findings
    names: dict = {}  # index -> helper name
    methods: set = set()  # the names that are methods of a class
    for i in held:
        f = findings[i]
        text = text_of(f.path) or ""
        d = next((d for d in top_definitions(text) if d[1] <= f.line <= d[2]), None)
        name = d[0] if d is not None else None
        if d is not None and _is_class(text, d):
            name = _method_at(text, d, f.line)
            if name:
                methods.add(name)
        names[i] = name
    wanted = {n for n in names.values() if n}
    named: set = set()
    for sf in files:
        if sf.kind != "python" or not wanted - named or classify(sf.rel) == "test":
            continue  # (a test importing the helper tests it, with its own mocks: no caller of the library's)
        text = None
        for n in wanted - named:
            if any(findings[i].path != sf.rel for i, m in names.items() if m == n):
                text = text if text is not None else (text_of(sf.rel) or "")
                if n in text and _word_at(text, n, 0, len(text)) and not (
                        n in methods and re.search(rf"(?m)^[ \t]+(?:async[ \t]+)?def[ \t]+{n}\b", text)):
                    # (a file defining a method of that name itself calls its own: `self._x()` of its class)
                    named.add(n)
    out = list(findings)
    for i, n in names.items():
        if n is None or n in named:
            out[i] = replace(findings[i], guarded=False, guarded_by="")
    return out


_DEF = re.compile(r"(?m)^(?:class|def|async[ \t]+def)\b")
_METHOD = re.compile(r"(?m)^([ \t]+)(?:async[ \t]+)?def[ \t]+(\w+)")


def _is_class(text: str, d) -> bool:
    """The top-level definition `d` (top_definitions) is a class statement (past its decorators)."""
    m = _DEF.search(text, d[4], d[5])
    return m is not None and m.group().startswith("class")


def _method_at(text: str, d, line: int):
    """The name of the method of class `d` holding the line: the last `def` at the class body's indentation (the
    least indented `def` of the class) that starts on or before the line; None when there is none."""
    defs = []
    for m in _METHOD.finditer(text, d[4], d[5]):
        defs.append((len(m.group(1).expandtabs()), text.count("\n", 0, m.start()) + 1, m.group(2)))
    if not defs:
        return None
    body = min(x[0] for x in defs)
    before = [x for x in defs if x[0] == body and x[1] <= line]
    return before[-1][2] if before else None
