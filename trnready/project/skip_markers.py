"""Skip markers defined in one module and put on tests in another: `skip_if_single_gpu = pytest.mark.skipif(
torch.cuda.device_count() < 2, reason=...)` in a testing helper module, then `from .testing import
skip_if_single_gpu` and `@skip_if_single_gpu` on tests elsewhere. The per-file pass judges a file's own markers
(neuron-guarded's `local_skips`) but cannot see an imported one, so the defining module lists its markers in its
summary's `flags` ("~name") and each test module lists the definitions its imported names decorate in `guards`
("~name"); the link step (project/flags.py) follows the import to the definition and guards those tests.

A test class whose setUp skips without CUDA is such a marker for the classes deriving from it: `class
DistributedTest(unittest.TestCase)` raising `unittest.SkipTest` in its setUp without two GPUs, then `from .test_fsdp
import DistributedTest` and `class TestSaveLoad(DistributedTest)` elsewhere. Its module lists it as "~DistributedTest"
and the subclass is listed under its base's name, when it runs the base's setUp (defines none, or calls it)."""
from __future__ import annotations

import ast
import re

MARK = "~"  # a skip marker in `flags` and `guards` (a Python name never starts with it)
HELPER = "^"  # a helper of a test module in `guards`: "^" and the lines that reference it
MAX_REFS = 16  # references listed per helper: a helper used more widely is not judged

# a module-level assignment of a skip decorator: only such files can define a marker (cheap text test first)
_DEFINES = re.compile(r"^\w+\s*=\s*[\w.]*skip(?:if|If|Unless)\(", re.M)
# a setUp-like method (context/neuron_guarded.py `_SETUPS`) that may skip its class's tests
_SETUP = re.compile(r"def (?:setUp|setUpClass|setup_method|setup_class)\(")


def marker_flags(tree: ast.Module, text: str, values: dict, rel: str) -> list:
    """["~name"] for the module-level names of the file every assignment of which is a decorator that skips a test
    on a Neuron machine (the same judgement neuron-guarded makes of the file's own markers), and the module-level
    test classes whose setUp (own or inherited in the file) skips there."""
    if not _DEFINES.search(text) and not _SETUP.search(text):
        return []
    from ..context.base import FileContext
    from ..context.neuron_guarded import _spans

    spans = _spans(FileContext(index=None, tree=tree, resolver=None, values=values, path=rel))
    return [MARK + n for n in sorted(spans.local_skips | spans.setup_classes)] if spans is not None else []


def marker_guards(tree: ast.Module, imported: set) -> list:
    """`guards` entries [first line, last line, "~name", False] for the tests and test classes decorated with a bare
    name imported from a module of the project (`@skip_if_single_gpu`), and for the classes deriving from such a
    name that run its setUp (`class TestSaveLoad(DistributedTest)`); the link step keeps those whose name is a
    skip marker where it is defined."""
    from ..context._test_skips import inherits_setups
    from ..context.neuron_guarded import _SETUPS

    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [d.id for d in node.decorator_list if type(d) is ast.Name and d.id in imported]
            if type(node) is ast.ClassDef and inherits_setups(node, _SETUPS):
                names += [b.id for b in node.bases if type(b) is ast.Name and b.id in imported]
            if names:
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                out.append([first, node.end_lineno or node.lineno,
                            MARK + "|".join(dict.fromkeys(names)), False])
    return out


def helper_refs(tree: ast.Module) -> list:
    """`guards` entries [first line, last line, "^3,17", False] for the helpers of a test module (functions, classes
    and values not named as tests, as neuron-guarded's helper rule reads them) with the lines outside the helper that
    reference it. Written only for a module whose tests the link step may guard (skip markers or conftest fixtures
    from elsewhere): a helper every reference of which ends up guarded there runs for nobody, as within one file
    (`mp.spawn(_worker, ...)` from a test under an imported `@skip_if_single_gpu`)."""
    from ..context._test_skips import _candidates, reference_positions

    cands = _candidates(tree)
    if not cands:
        return []
    nodes = list(ast.walk(tree))
    refs = reference_positions([n for n in nodes if type(n) is ast.Name],
                               [n for n in nodes if type(n) is ast.Attribute], {name for _, name, _ in cands})
    out = []
    for node, name, attr in cands:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
        last = node.end_lineno or node.lineno
        lines = sorted({ln for ln, _ in refs.get((name, attr), ()) if not first <= ln <= last})
        if lines and len(lines) <= MAX_REFS:
            out.append([first, last, HELPER + ",".join(map(str, lines)), False])
    return out


def guarded_helpers(spans: list, helpers: list, rounds: int = 4) -> list:
    """The (first, last, False) spans of the `helpers` entries every reference of which lies in `spans` or in a
    helper already guarded (guarding one can settle the helper it calls, so a few rounds run)."""
    added: list = []
    left = list(helpers)
    for _ in range(rounds):
        held = spans + added
        now = [h for h in left if all(any(f <= int(ln) <= la for f, la, _ in held)
                                      for ln in h[2][len(HELPER):].split(","))]
        if not now:
            break
        added += [(h[0], h[1], False) for h in now]
        left = [h for h in left if h not in now]
    return added


def is_marker(modules, rel: str, name: str, hops: int, max_hops: int) -> bool:
    """Whether `name`, as module `rel` sees it, is a skip marker some module of the project defines: listed "~name"
    in `rel`'s flags, or imported (through re-exports, up to `max_hops` links) from a module listing it."""
    from .summary import head_of

    while hops <= max_hops and rel in modules.summaries:
        s = head_of(modules.summaries, rel)
        if MARK + name in s["flags"]:
            return True
        source = modules.imported_from(s, rel, name)
        if source is None:
            return False
        (rel, name), hops = source, hops + 1
    return False
