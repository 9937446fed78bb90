"""What a whole-word occurrence of a name in a file's text refers to, for `never-referenced` (unreferenced.py).

Three kinds of occurrence name something else, or nothing that runs:

- the comment block written right above a definition (`# Behaves similar to tf.segment_sum` over `def
  segment_sum`): the definition's own heading, as its docstring is (`header_start`);
- a name a file binds by importing it from a library outside the project (`from torchvision.transforms import
  Resize`), and a dotted name whose head is such an import (`torchvision.transforms.Resize`, `dist.all_gather`
  after `import torch.distributed as dist`): another library's object of the same name (`foreign_names`);
- a comment line that is code left commented out (`# prior.apply(_convert_mlp_traced)`): it runs nothing
  (`commented_code`). Prose in a comment (`# _convert_mlp_traced is slow`) still counts.
"""
from __future__ import annotations

import ast
import re
import warnings

_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)", re.M)
_ALIAS = re.compile(r"([\w.]+)(?:\s+as\s+(\w+))?")


def header_start(text: str, start: int) -> int:
    """The offset where the block of column-0 comment lines (and blank lines among them) directly above the
    definition starting at `start` begins; `start` itself when there is none."""
    pos = start
    while pos > 0:
        prev = text.rfind("\n", 0, pos - 1) + 1
        line = text[prev:pos].strip()
        if line and not text.startswith("#", prev):
            break
        pos = prev
    # blank lines above the first comment are not part of the header
    while pos < start and not text[pos:text.find("\n", pos) + 1 or start].strip():
        pos = text.find("\n", pos) + 1
    return pos


def project_names(files) -> frozenset:
    """Every folder name and module file name among the scanned files: an import whose head is one of them may be
    the project's own code (a `sys.path` entry makes any folder importable)."""
    out: set = set()
    for sf in files:
        parts = sf.rel.split("/")
        out.update(parts[:-1])
        out.add(parts[-1].rsplit(".", 1)[0])
    return frozenset(out)


def foreign_names(text: str, own: frozenset) -> frozenset:
    """The names the text binds by importing from a library outside the project: `import torchvision` binds
    `torchvision`, `import torch.distributed as dist` binds `dist`, `from torchvision.transforms import Resize`
    binds `Resize`. Relative imports and imports whose head is a project folder or module (`own`) are the
    project's."""
    out: set = set()
    ours: set = set()  # names a project import binds too: the file may mean either
    if "import" not in text:
        return frozenset()
    for m in _IMPORT.finditer(text):
        for part in m.group(1).split(","):
            a = _ALIAS.match(part.strip())
            if a:
                bound = a.group(2) or a.group(1).split(".")[0]
                (ours if a.group(1).split(".")[0] in own else out).add(bound)
    for m in _FROM.finditer(text):
        module = m.group(1)
        mine = module.startswith(".") or not module or module.split(".")[0] in own
        for part in m.group(2).strip("()").split(","):
            a = _ALIAS.match(part.strip())
            if a and "." not in a.group(1):
                (ours if mine else out).add(a.group(2) or a.group(1))
    return frozenset(out - ours)


def foreign_at(text: str, i: int, foreign: frozenset, name: str) -> bool:
    """The occurrence of `name` at offset `i` names a foreign library's object: the name itself is bound by such an
    import, or it ends a dotted name whose head is (`torchvision.transforms.Resize`)."""
    if not foreign or i and text[i - 1] in "'\"":
        return False  # a string (`type="Resize"`) names what a registry or config picks: the project's
    k = i
    while k > 0 and text[k - 1] == ".":
        k -= 1
        while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
            k -= 1
    if k == i:
        return name in foreign
    return text[k:i].split(".", 1)[0] in foreign


def commented_code(line: str) -> bool:
    """A comment line (its text after `#`) that is Python code left commented out: it parses, and is more than a
    bare name or constant (`# prior.apply(fn)`, `# x = fn(y)`; not `# fn is slow`, not `# fn`)."""
    body = line.lstrip()[1:].strip()
    if not body or len(body) > 300:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(body)
    except (SyntaxError, ValueError):
        return False
    if len(tree.body) != 1:
        return False
    node = tree.body[0]
    if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Name, ast.Constant, ast.Attribute)):
        return False
    return True


def from_imports(text: str) -> list:
    """[(start, end, module, names)] of the `from module import ...` statements of the text: the module as written
    (`.modeling`, `pkg.sub`) and the names imported (before any `as`), also parenthesised."""
    out: list = []
    if "import" not in text:
        return out
    for m in _FROM.finditer(text):
        names = set()
        for part in m.group(2).strip("()").split(","):
            a = _ALIAS.match(part.strip())
            if a:
                names.add(a.group(1))
        out.append((m.start(), m.end(), m.group(1), frozenset(names)))
    return out


def import_modules(text: str) -> list:
    """The modules the text's import statements name, as written: `from ..deprecated.io import x` -> `..deprecated.io`,
    `import a.b as c, d` -> `a.b`, `d`."""
    if "import" not in text:
        return []
    out = [m for _a, _b, m, _names in from_imports(text)]
    for m in _IMPORT.finditer(text):
        for part in m.group(1).split(","):
            a = _ALIAS.match(part.strip())
            if a:
                out.append(a.group(1))
    return out


def name_imports(text: str, name: str, statements: list | None = None) -> list:
    """[(start, end, module)] of the `from module import ...` statements of the text that import `name` itself
    (`from .modeling import BertModel, name`, also parenthesised or aliased). `statements`: `from_imports(text)`
    when the caller has it."""
    return [(a, b, m) for a, b, m, names in (from_imports(text) if statements is None else statements)
            if name in names]


def imports_name(text: str, name: str) -> bool:
    """Some import statement of the text names `name` (imported, aliased, or as a part of a module path)."""
    w = re.escape(name)
    return re.search(rf"^[ \t]*(?:from|import)[ \t][^\n]*?(?<![\w]){w}(?![\w])", text, re.M) is not None or \
        re.search(rf"^[ \t]*from[ \t][^\n(]*import[ \t]*\([^)]*?(?<![\w]){w}(?![\w])", text, re.M) is not None


def defines_at_top(text: str, name: str) -> bool:
    """The text has a module-level `def name` / `class name` (in column 0)."""
    return re.search(rf"^(?:async[ \t]+def|def|class)[ \t]+{re.escape(name)}(?![\w])", text, re.M) is not None
