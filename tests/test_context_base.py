"""The shared per-file facts of context/base.py answer exactly what a walk of the whole tree answers.

`FileContext.parent` finds a node's ancestors by descending through the spans that hold it, and
`FileContext.nodes` lists statements from a walk of the statements alone; both are shortcuts of the
whole-file walk (`_walk`) and must agree with it node for node, order included.
"""
import ast

import pytest

from conftest import REPO
from trnready.context import base

TRICKY = '''
import functools

@functools.lru_cache(maxsize=None)
@staticmethod
def decorated(a, b=lambda x: x + 1, *args, k=[i for i in range(3)], **kw) -> int:
    return f"{a!r:>{b}} {kw['x']}" + f'{ {"k": [v for v in args if v]} }'


class C(Base, metaclass=Meta):
    @property
    def p(self):
        try:
            pass
        except (ValueError, TypeError) as e:
            def in_handler():
                pass
        else:
            def in_else():
                pass
        finally:
            def in_finally():
                pass
        return self


def matcher(x):
    match x:
        case {"a": [1, 2, *rest]} if rest:
            def in_case():
                pass
        case Point(x=0) | None:
            pass
    with open(x) as f, open(x) as g:
        y = (lambda: (yield))
    if x:
        def alpha():
            pass
    else:
        def alpha():
            pass
    return [z async for z in g] if x else {k: v for k, v in f}
'''


def _sources():
    yield "tricky", TRICKY
    for p in sorted((REPO / "trnready").rglob("*.py"))[:40]:
        yield str(p.relative_to(REPO)), p.read_text(encoding="utf-8")
    for p in sorted((REPO / "tests" / "context_fixtures").rglob("*.py")):
        yield str(p.relative_to(REPO)), p.read_text(encoding="utf-8")


@pytest.mark.parametrize("name,text", list(_sources()), ids=lambda v: v if len(v) < 80 else "")
def test_parent_and_statement_nodes_agree_with_the_whole_file_walk(name, text):
    tree = ast.parse(text)
    table, parents = base._walk(tree)
    ctx = base.FileContext(index=None, tree=tree, resolver=None, values={})
    every = [n for nodes in table.values() for n in nodes
             if not isinstance(n, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop))]
    searched = 0
    for node in every[::-1]:
        # each node asked of a fresh context (found by the search) and of one shared context (from the cache)
        alone = base.FileContext(index=None, tree=tree, resolver=None, values={})
        assert alone.parent(node) is parents.get(id(node)), (name, type(node).__name__, getattr(node, "lineno", None))
        searched += "_walk" not in alone.memo
        assert ctx.parent(node) is parents.get(id(node)), (name, type(node).__name__, getattr(node, "lineno", None))
    assert searched > len(every) // 2  # most nodes were found without the whole-file walk
    fresh = base.FileContext(index=None, tree=tree, resolver=None, values={})
    for kind in {type(n) for n in every if isinstance(n, ast.stmt)} | {ast.FunctionDef, ast.If, ast.Try,
                                                                       ast.ExceptHandler, ast.match_case}:
        assert fresh.nodes(kind) == table.get(kind, []), (name, kind.__name__)
    assert "_walk" not in fresh.memo  # statement kinds (and handlers, cases) never needed the whole-file walk


@pytest.mark.parametrize("name,text", list(_sources()), ids=lambda v: v if len(v) < 80 else "")
def test_expressions_of_some_kinds_are_those_of_expressions_in_the_same_order(name, text):
    tree = ast.parse(text)
    kinds_tried = [(ast.IfExp, ast.BoolOp), (ast.Call,), (ast.Name, ast.Attribute, ast.Lambda, ast.comprehension,
                                                            ast.keyword, ast.arguments, ast.JoinedStr)]
    for st in base.statements_of(tree):
        every = list(base.expressions(st))
        for kinds in kinds_tried:
            assert base.expressions_of(st, kinds) == [e for e in every if type(e) in kinds], (name, st.lineno)


def test_parent_outside_the_file_and_at_the_top():
    tree = ast.parse("x = 1\n")
    ctx = base.FileContext(index=None, tree=tree, resolver=None, values={})
    assert ctx.parent(tree) is None
    assert ctx.parent(tree.body[0].value) is tree.body[0]
    assert ctx.parent(ast.parse("y = 2\n").body[0]) is None



def test_the_stand_in_import_of_a_computed_import_is_held_by_its_call():
    # `importlib.import_module("fused_adam_cuda")` is indexed as a stand-in `import fused_adam_cuda` (index.py):
    # its holder is the call, so predicates walking up from it see the function and the `try:` around it
    from trnready.index import Indexer, Interest

    tree = ast.parse("import importlib\ndef f():\n    try:\n        m = importlib.import_module('apex')\n"
                     "    except ImportError:\n        m = None\n")
    empty = frozenset()
    index = Indexer(Interest(empty, empty, empty, empty, empty)).run(tree)
    (stand_in, names), = [(n, c) for n, c in index.imports if getattr(n, "trnready_call", None) is not None]
    assert names == ("apex",) and stand_in in index.guarded and stand_in.lineno == 4
    ctx = base.FileContext(index=index, tree=tree, resolver=None, values={})
    call = ctx.parent(stand_in)
    assert type(call) is ast.Call and type(ctx.parent(ctx.parent(call))) is ast.Try


COMPILES = [
    ("plain", "import torch\nm = torch.compile(m)\n", True),
    ("decorator", "import torch\n@torch.compile(fullgraph=True)\ndef f(x):\n    return x\n", True),
    ("passed", "import torch as t\nrun(fn=t.compile)\n", False),
    ("own name", "import mytorch\nmytorch.compile(m)\n", True),
    ("comment only", "# torch.compile is not used here\nx = 1\n", False),
    ("none", "import torch\nx = torch.zeros(3)\n", False),
    # Python reads identifiers NFKC-normalised: a full-width letter still spells `compile`
    ("full-width", "import torch\nm = torch.\uff43ompile(m)  # é\n", True),
    ("non-ASCII, no compile", "import torch\nx = torch.zeros(3)  # é\n", False),
]


@pytest.mark.parametrize("name,text,expected", COMPILES, ids=[c[0] for c in COMPILES])
def test_compiles_looks_at_the_text_first_and_agrees_with_the_walk(name, text, expected):
    from trnready.readers.python import parse

    tree, _ = parse(text, "x.py")
    assert tree.trnready_text == text
    ctx = base.FileContext(index=None, tree=tree, resolver=None, values={})
    assert base.compiles(ctx) is expected
    walked = any(base.dotted(n).endswith("torch.compile") for n in base._walk(tree)[0].get(ast.Attribute, []))
    assert walked is expected
    assert ("_walk" in ctx.memo) is (name not in ("none", "non-ASCII, no compile"))  # no walk unless the text names it
    # without the text (a tree parsed elsewhere) the walk answers
    bare = base.FileContext(index=None, tree=ast.parse(text), resolver=None, values={})
    assert base.compiles(bare) is expected and "_walk" in bare.memo


@pytest.mark.parametrize("name,text", list(_sources()), ids=lambda v: v if len(v) < 80 else "")
def test_compiles_agrees_with_the_walk_on_real_sources(name, text):
    from trnready.readers.python import parse

    tree, _ = parse(text, name)
    ctx = base.FileContext(index=None, tree=tree, resolver=None, values={})
    walked = any(base.dotted(n).endswith("torch.compile") for n in base._walk(tree)[0].get(ast.Attribute, []))
    assert base.compiles(ctx) is walked
