"""Which names a file imports from the project's own modules, and whether an import can mean a helper of a given
file: read by the steps that follow a helper's calls into other modules (caller places, inherited masks)."""
from __future__ import annotations

import ast

from ..astwalk import statements


def imported_names(tree: ast.Module, rel: str, names: dict, renamed: bool = False) -> list:
    """[(local name, absolute module)] of the file's `from module import name` statements (any depth); with
    renamed, [(local name, imported name, absolute module)] including `import name as other`."""
    mine = names.get(rel) or []
    out: list = []
    for node in statements(tree):  # imports are statements: expressions are not entered
        if not isinstance(node, ast.ImportFrom):
            continue
        mods = []
        if node.level:
            for m in mine:  # a relative import, from each name the file can be imported as
                pkg = m.split(".") if rel.endswith("__init__.py") else m.split(".")[:-1]
                if node.level - 1 <= len(pkg):
                    base = pkg[:len(pkg) - (node.level - 1)]
                    mods.append(".".join([*base, *([node.module] if node.module else [])]))
        elif node.module:
            mods.append(node.module)
        for a in node.names:  # a helper imported under another name is followed only when asked
            if renamed:
                out += [(a.asname or a.name, a.name, m) for m in mods]
            elif a.asname in (None, a.name):
                out += [(a.name, m) for m in mods]
    return out


def from_helper(mod: str, where: str, names: dict) -> bool:
    """Whether `from mod import name` can mean the helper of file `where`: mod is that module, or a package above
    it (its `__init__.py` re-exports the helper: `from mit_semseg.lib.nn import async_copy_to`, handed on by
    `nn/__init__.py` from `nn/parallel/__init__.py` from `nn/parallel/data_parallel.py`)."""
    for n in names.get(where) or []:
        if mod == n or ("." in n and not where.endswith("__init__.py") and n.startswith(mod + ".")):
            return True
    return False
