"""The places of a module imported through a project helper (`awq_ext, msg = try_import("awq_ext")`, link step 3).

The call is the finding (an import of the module its literal names); each call of the module it binds in the file
(`awq_ext.gemmv2_forward_cuda(...)`) is one of its places, so a checklist shows where the library runs, as for an
import of a kernel module (kernel_calls.py). A call under a test of the module itself (`if awq_ext is not None:`)
is on the path the file takes only when the import worked, and is not a place.
"""
from __future__ import annotations

import ast

from .kernel_calls import places_of
from ..astwalk import walk

# the last step of the chain of such a finding: the helper's own call of the importer (summary._IMPORTERS)
IMPORTER_STEPS = ("importlib.import_module", "import_module", "__import__")


def _bound(target) -> str | None:
    """The name the module lands in: `mod = helper(...)`, or the first of `mod, msg = helper(...)`."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, (ast.Tuple, ast.List)) and target.elts and isinstance(target.elts[0], ast.Name):
        return target.elts[0].id
    return None


def helper_import_places(tree: ast.Module, line: int, col: int) -> list:
    """[(line, UTF-8 byte offset)] of the calls of the module bound by the assignment whose value is the helper
    call at (line, col)."""
    for node in walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                and node.value.lineno == line and node.value.col_offset == col:
            name = _bound(node.targets[0])
            if not name:
                return []
            checked = _checked_spans(tree, name)
            return [(ln, c) for ln, c in places_of(tree, set(), {name + "."})
                    if not any(a <= ln <= b for a, b in checked)]
    return []


def _checked_spans(tree: ast.Module, name: str) -> list:
    """Line spans of the `if` / `elif` / conditional expressions whose test names the module (`if awq_ext is not
    None:`, `elif awq_ext:`): their calls sit on a path the file chose knowing whether the import worked."""
    out = []
    for node in walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)) and any(
                isinstance(n, ast.Name) and n.id == name for n in walk(node.test)):
            out.append((node.lineno, node.end_lineno or node.lineno))
    return out
