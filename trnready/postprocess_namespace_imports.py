"""Imports of a CUDA-only namespace are places of the finding they serve (file step `namespace_imports`).

`import torch.cuda.amp as amp` is matched by no rule: the rules report the uses (`@amp.custom_fwd`,
`amp.GradScaler()`), where the port's edit is. The import is part of that edit all the same: it names a namespace
that exists for CUDA only, and a port that rewrites the uses to `torch.amp` rewrites the import with them. So an
import whose imported name lies below one of `[context.values] namespace-import-prefixes` becomes a place of
the file's first finding whose resolved name (the backquoted name of its message) starts with that imported name,
one spelling the bound name first: one item, found at the import and at the use. An import nothing reported
resolves through (every use guarded away, or no use) stays silent, as does an import of a namespace whose uses are
dropped rather than rewritten (`import torch.backends.cudnn as cudnn` stays behind, harmless, when the flags go) or
that is not CUDA's own (`import torch.nn.functional as F` before a bilinear `F.interpolate`: the mode is the
problem, not the module).
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from .astwalk import statements

MAX_PLACES = 100  # as postprocess.MAX_OCCURRENCES

_NAMED = re.compile(r"`@?([A-Za-z_][\w.]*)")


def _imports(tree, prefixes: tuple) -> list:
    """(line, column, imported dotted name, name bound) of every import of a name at or below one of `prefixes`;
    columns are 1-based, as findings' are."""
    out = []
    for node in statements(tree):  # imports are statements: no expression is entered
        if type(node) is ast.Import:
            names = [(a.name, a.asname or a.name.split(".", 1)[0]) for a in node.names]
        elif type(node) is ast.ImportFrom and node.module and not node.level:
            names = [(f"{node.module}.{a.name}", a.asname or a.name) for a in node.names if a.name != "*"]
        else:
            continue
        for name, bound in names:
            # below the namespace only: `from torch import cuda` binds the package itself, which the rules that
            # report its uses do not name by themselves (tests/test_python_recall_classes.py)
            if any(name.startswith(p + ".") for p in prefixes):
                out.append((node.lineno, node.col_offset + 1, name, bound))
    return out


def _resolved(f) -> tuple:
    return tuple(m.group(1) for m in _NAMED.finditer(f.message))


def namespace_imports(findings: list, ctx, result) -> list:
    values = getattr(getattr(ctx.engine, "catalogue", None), "context_values", {})
    prefixes = tuple(values.get("namespace-import-prefixes", ()))
    # (the text first: most files import nothing below a prefix, and need no walk of their tree)
    if ctx.kind != "python" or not findings or not prefixes or not result.sources \
            or not any(p in ctx.text for p in prefixes):
        return findings
    tree = getattr(result.sources[0], "tree", None)
    if not isinstance(tree, ast.Module):
        return findings
    imports = _imports(tree, prefixes)
    if not imports:
        return findings
    ordered = sorted((f for f in findings if not f.suppressed and f.cell is None),
                     key=lambda f: (f.guarded, f.sort_key()))
    reported = {(f.line, f.category) for f in findings}  # the import reported by a rule of its own
    into: dict = {}  # id of a finding -> places added to it
    for line, column, name, bound in imports:
        # the findings that spell the bound name (`amp.GradScaler()` after `import torch.cuda.amp as amp`) first,
        # then any other resolved through the import's name (`torch.cuda.amp.autocast()`)
        spelled = re.compile(rf"(?<![\w.]){re.escape(bound)}\b")
        for f in sorted(ordered, key=lambda f: (f.guarded, spelled.search(f.snippet) is None)):
            if (line, f.category) in reported:
                continue
            if any(n == name or n.startswith(name + ".") for n in _resolved(f)):
                # Even when a later finding already lists the import (a use folded into it by one_per_thing): a
                # report step may still guard that one (a module's self-test), and the import serves both.
                if line not in {ln for ln, _r in f.places()}:
                    into.setdefault(id(f), []).append((line, column, f.rule))
                break
    if not into:
        return findings
    return [replace(f, occurrences=tuple(sorted(set(f.occurrences) | set(into[id(f)])))[:MAX_PLACES])
            if id(f) in into else f for f in findings]
