"""Skip markers defined in one module and put on tests in another: `skip_if_single_gpu = pytest.mark.skipif(
torch.cuda.device_count() < 2, reason=...)` in a testing helper module, then `from .testing import
skip_if_single_gpu` and `@skip_if_single_gpu` on tests elsewhere. The per-file pass judges a file's own markers
(neuron-guarded's `local_skips`) but cannot see an imported one, so the defining module lists its markers in its
summary's `flags` ("~name") and each test module lists the definitions its imported names decorate in `guards`
("~name"); the link step (project/flags.py) follows the import to the definition and guards those tests."""
from __future__ import annotations

import ast
import re

MARK = "~"  # a skip marker in `flags` and `guards` (a Python name never starts with it)

# a module-level assignment of a skip decorator: only such files can define a marker (cheap text test first)
_DEFINES = re.compile(r"^\w+\s*=\s*[\w.]*skip(?:if|If|Unless)\(", re.M)


def marker_flags(tree: ast.Module, text: str, values: dict, rel: str) -> list:
    """["~name"] for the module-level names of the file every assignment of which is a decorator that skips a test
    on a Neuron machine (the same judgement neuron-guarded makes of the file's own markers)."""
    if not _DEFINES.search(text):
        return []
    from ..context.base import FileContext
    from ..context.neuron_guarded import _spans

    spans = _spans(FileContext(index=None, tree=tree, resolver=None, values=values, path=rel))
    return [MARK + n for n in sorted(spans.local_skips)] if spans is not None else []


def marker_guards(tree: ast.Module, imported: set) -> list:
    """`guards` entries [first line, last line, "~name", False] for the tests and test classes decorated with a bare
    name imported from a module of the project (`@skip_if_single_gpu`); the link step keeps those whose name is a
    skip marker where it is defined."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [d.id for d in node.decorator_list if type(d) is ast.Name and d.id in imported]
            if names:
                out.append([node.decorator_list[0].lineno, node.end_lineno or node.lineno,
                            MARK + "|".join(dict.fromkeys(names)), False])
    return out


def is_marker(modules, rel: str, name: str, hops: int, max_hops: int) -> bool:
    """Whether `name`, as module `rel` sees it, is a skip marker some module of the project defines: listed "~name"
    in `rel`'s flags, or imported (through re-exports, up to `max_hops` links) from a module listing it."""
    from .summary import head_of

    while hops <= max_hops and rel in modules.summaries:
        s = head_of(modules.summaries, rel)
        if MARK + name in s["flags"]:
            return True
        imp = s["imports"].get(name)
        if imp is None or imp[2] is None:
            return False
        target = modules.absolute(rel, imp[0], imp[1])
        if target not in modules.mods:
            return False
        rel, name, hops = modules.mods[target], imp[2], hops + 1
    return False
