"""Which of the project's files an import statement can load, for the never-imported step (project/unimported.py).

A word naming a module is no use of it when it only sits in import statements that load another file: X-Decoder
keeps a stale copy of its decoder under `modeling/body/decoder/` beside the live one in `modeling/interface/`, and
`from .modules import SelfAttentionLayer` in the live package loads `modeling/interface/modules.py`, never the
copy's `modules.py`. An import loads, among the scanned Python files:

- `from .x import a` / `from ..pkg.x import a` (relative): the package folder `level` steps up from the importer,
  then `x.py` or `x/__init__.py` there, or `x/a.py` for a submodule named in the list;
- `from a.b import c` / `import a.b` (absolute): the same path below the scan root or below any folder above the
  importer (a script's own folder is on `sys.path`, and projects add their folders to it).

`names_elsewhere` answers only when the text parses and every mention of the word outside comments is one of: an
import statement that loads some scanned file but not the module in question; a string of prose (`"All modules
should be at the same optim step"`); an attribute read on a name no import binds (`self.modules()`). Anything else
(a string without spaces, which may be a dotted path; an attribute of an imported module; a statement that loads
nothing the scan holds) leaves the mention standing.
"""
from __future__ import annotations

import ast
import posixpath

from ..astwalk import walk


def _bases(importer: str, level: int) -> list:
    """The folders (project-relative, "" for the root) the import's dotted path is read from."""
    folder = posixpath.dirname(importer)
    if level:
        for _ in range(level - 1):
            if not folder:
                return []
            folder = posixpath.dirname(folder)
        return [folder]
    out = [""]
    while folder:
        out.append(folder)
        folder = posixpath.dirname(folder)
    return out


def _targets(node, importer: str) -> list:
    """Project-relative candidate files the import statement may load."""
    out: list = []
    if type(node) is ast.ImportFrom:
        parts = node.module.split(".") if node.module else []
        for base in _bases(importer, node.level):
            stem = posixpath.join(base, *parts) if parts else base
            out += [stem + ".py", posixpath.join(stem, "__init__.py")]
            out += [posixpath.join(stem, a.name + ".py") for a in node.names if a.name != "*"]
            out += [posixpath.join(stem, a.name, "__init__.py") for a in node.names if a.name != "*"]
    else:
        for a in node.names:
            parts = a.name.split(".")
            for base in _bases(importer, 0):
                for k in range(1, len(parts) + 1):
                    stem = posixpath.join(base, *parts[:k])
                    out += [stem + ".py", posixpath.join(stem, "__init__.py")]
    return [posixpath.normpath(p).lstrip("./") if p else p for p in out]


class Facts:
    """What the mention test needs of one parsed file: its import statements, its prose strings and the attribute
    reads on names no import binds (`self.modules()`, `model.layers`)."""

    def __init__(self, tree):
        self.imports = []
        self.prose = []  # (start, end) positions of string literals holding whitespace: text, not a module path
        self.attrs = set()  # (line, byte column) where the attribute name of such a read starts
        bound = set()
        for n in walk(tree):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                self.imports.append((n.lineno, n.end_lineno or n.lineno, n))
                bound |= {(a.asname or a.name).split(".", 1)[0] for a in n.names}
        for n in walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and any(c.isspace() for c in n.value):
                self.prose.append(((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0)))
            elif isinstance(n, ast.Attribute) and n.end_lineno is not None and n.end_col_offset is not None:
                root = n.value
                while isinstance(root, ast.Attribute):
                    root = root.value
                if not isinstance(root, ast.Name) or root.id not in bound:
                    self.attrs.add((n.end_lineno, n.end_col_offset - len(n.attr.encode("utf-8"))))


def names_elsewhere(mentions: list, got: Facts, importer: str, module: str, files: set) -> bool:
    """Every mention of the word, as (line, byte column), is no use of `module`: it lies in an import statement
    that loads some scanned file (`files`) but not `module`, in a string of prose (`"All modules should ..."`), or
    is an attribute read on a name no import binds (`self.modules()`)."""
    if not mentions:
        return False
    for line, col in mentions:
        if (line, col) in got.attrs or any(a <= (line, col) < b for a, b in got.prose):
            continue
        held = [n for a, b, n in got.imports if a <= line <= b]
        if not held:
            return False
        for n in held:
            found = {t for t in _targets(n, importer) if t in files}
            if not found or module in found:
                return False
    return True


def loads_below(tree, importer: str, folder: str) -> bool:
    """Some import statement of the parsed file may load a module of the package `folder` (or the package)."""
    inside = folder + "/"
    for n in walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any(
                t.startswith(inside) or t == folder + ".py" for t in _targets(n, importer)):
            return True
    return False
