"""Report step relayed-env: a variable of the project's own that carries the CUDA device list to a child process.

A launcher that starts its workers with `Popen` cannot always set `CUDA_VISIBLE_DEVICES` for them directly (the
parent process would see only those GPUs too), so it hands the list over under a name of its own, and each child
copies it in first thing: GPT-SoVITS' webui sets `os.environ["_CUDA_VISIBLE_DEVICES"] = "0"` or passes
`{"_CUDA_VISIBLE_DEVICES": "0", ...}` as the worker's environment, and every worker script starts with
`os.environ["CUDA_VISIBLE_DEVICES"] = os.environ["_CUDA_VISIBLE_DEVICES"]`. The child's line is TRN245 already
(the catalogue's `env` matcher); the parent's lines choose the GPUs and are where the port sets NeuronCores instead,
but they name no variable the catalogue knows.

So: the relay names are read off the TRN245 findings (`CUDA_VISIBLE_DEVICES` set from `os.environ["N"]`,
`os.environ.get("N")` or `os.getenv("N")`), and every line of the project's Python that sets N (`os.environ["N"] =`,
`os.environ.setdefault("N", ...)`, a `"N":` key of a dict display, `N=` in `os.environ.update(...)` or `dict(...)`)
is reported with TRN245, naming a child that reads it. Reading N (`if "N" in os.environ:`) is not setting it.

Cheap: nothing is read unless a finding shows a relay; then each Python file's text is tested for the name
before its lines are matched.
"""
from __future__ import annotations

import re

_RULE = "TRN245"
_RELAY = re.compile(r"""environ\s*\[\s*["']CUDA_VISIBLE_DEVICES["']\s*\]\s*=\s*(?:os\.)?"""
                    r"""(?:environ\s*(?:\[|\.get\s*\()|getenv\s*\()\s*["'](?P<name>[A-Za-z_]\w*)["']""")
MAX_NAMES = 8


def _setters(name: str) -> re.Pattern:
    n = re.escape(name)
    return re.compile(r"""environ\s*\[\s*(["'])(?P<a>""" + n + r""")\1\s*\]\s*=(?!=)"""
                      r"""|setdefault\s*\(\s*(["'])(?P<b>""" + n + r""")\3"""
                      r"""|(["'])(?P<c>""" + n + r""")\5\s*:"""
                      r"""|(?:update|dict)\s*\([^)]*?\b(?P<d>""" + n + r""")\s*=(?!=)""")


def relayed_findings(findings: list, files, engine, read_python, read_lines) -> list:
    """The new TRN245 findings at the lines that set a relay of CUDA_VISIBLE_DEVICES (see the module docstring);
    the findings given are not changed or returned."""
    children: dict = {}  # relay name -> (child path, line)
    for f in findings:
        if f.rule == _RULE and f.cell is None and "CUDA_VISIBLE_DEVICES" in f.snippet:
            m = _RELAY.search(f.snippet)
            if m is not None and m.group("name") != "CUDA_VISIBLE_DEVICES" and len(children) < MAX_NAMES:
                children.setdefault(m.group("name"), (f.path, f.line))
    if not children:
        return []
    rules = {r.id: r for r in engine.rules}
    rule = rules.get(_RULE)
    if rule is None:
        return []
    from ..model import Occurrences, make_finding
    from .report import _context, _suppressed

    taken = {(f.path, f.line) for f in findings if f.rule == _RULE}
    patterns = {name: _setters(name) for name in children}
    occurrences = Occurrences()
    out: list = []
    lines_of: dict = {}
    for sf in files:
        if sf.kind != "python":
            continue
        text = read_python(sf)
        if not text:
            continue
        names = [n for n in patterns if n in text]
        if not names:
            continue
        lines = text.splitlines()
        for i, line in enumerate(lines, 1):
            if (sf.rel, i) in taken:
                continue
            for name in names:
                if name not in line:
                    continue
                m = patterns[name].search(line)
                if m is None:
                    continue
                group = next(g for g in "abcd" if m.group(g) is not None)
                child, at = children[name]
                message = (f"{rule.title}: `{name}`, the CUDA device list a child process reads ({child}:{at} "
                           f"sets CUDA_VISIBLE_DEVICES from it)")
                out.append(make_finding(rule, occurrences, confidence="medium", path=sf.rel, line=i,
                                        column=m.start(group) + 1, end_line=i, end_column=m.end(group) + 1,
                                        snippet=line, message=message, code=line.strip(),
                                        context=_context(lines, i)))
                lines_of[sf.rel] = lines
                break
    return _suppressed(out, lines_of, engine) if out else []
