"""trnready.astwalk.walk yields exactly what ast.walk yields, in the same order."""
from __future__ import annotations

import ast
from pathlib import Path

from trnready.astwalk import walk

ROOT = Path(__file__).resolve().parent.parent


def _sources():
    for p in sorted((ROOT / "trnready").rglob("*.py")):
        yield p.read_text(encoding="utf-8")
    for p in sorted((ROOT / "tests" / "fixtures").rglob("*.py"))[:400]:
        try:
            yield p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


EVERY_KIND = '''
import a.b as c
from .x import (y as z, w)
global g
def f[T](a, /, b: int = 1, *c, d, e=2, **k) -> "T":
    nonlocal q
    async with m() as (n, o):
        yield from p
    match v:
        case None | True | [1, *rest] | {"k": 2, **kw} | Point(x=0, y=_) as pt if pt:
            pass
    lambda s: s[1:2:3]
    print(f"{x!r:>{w}}", *a, **k)
    return [i async for i in j if i] or {k: v for k, v in d} or (yield)
class C(B, metaclass=M):
    x: int = 1
    try:
        raise E from F
    except* (G, H) as e:
        del e
    finally:
        assert t, "m"
type Alias = list[int]
'''


def test_the_same_nodes_in_the_same_order_as_ast_walk_on_real_files():
    count = 0
    for text in _sources():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        expected = list(ast.walk(tree))
        assert list(walk(tree)) == expected
        count += len(expected)
    assert count > 100_000


def test_every_kind_of_node_including_patterns_type_parameters_and_constants():
    try:
        tree = ast.parse(EVERY_KIND)
    except SyntaxError:  # `def f[T]` and `type X = ...` need Python 3.12
        tree = ast.parse(EVERY_KIND.replace("def f[T]", "def f").replace("type Alias = list[int]", "Alias = 1"))
    assert list(walk(tree)) == list(ast.walk(tree))
    assert [type(n) for n in walk(ast.parse("x", mode="eval"))] == [ast.Expression, ast.Name, ast.Load]


def test_a_subtree_and_a_leaf():
    call = ast.parse("f(a, b=1)").body[0].value
    assert list(walk(call)) == list(ast.walk(call))
    assert [type(n) for n in walk(ast.Constant(value=3))] == [ast.Constant]


def test_loaded_names_are_the_name_loads_the_walk_finds():
    from trnready.astwalk import loaded_names

    count = 0
    for text in [EVERY_KIND.replace("def f[T]", "def f").replace("type Alias = list[int]", "Alias = 1"),
                 *_sources()]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        every = {n.id for n in ast.walk(tree) if type(n) is ast.Name}
        wanted = set(sorted(every)[::3]) | {"no_such_name"}
        for node in [tree, *ast.walk(tree)][::7]:
            expected = {n.id for n in ast.walk(node)
                        if type(n) is ast.Name and n.id in wanted and type(n.ctx) is ast.Load}
            assert loaded_names(node, wanted) == expected
            count += bool(expected)
    assert count > 1000


def test_of_kinds_holds_the_nodes_of_those_types_the_walk_finds():
    from trnready.astwalk import of_kinds

    kinds_tried = [frozenset((ast.Constant, ast.JoinedStr)), frozenset((ast.Call,)), frozenset((ast.Name, ast.Module)),
                   frozenset((ast.MatchAs, ast.arg, ast.keyword, ast.alias))]
    count = 0
    for text in [EVERY_KIND.replace("def f[T]", "def f").replace("type Alias = list[int]", "Alias = 1"),
                 *_sources()]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in [tree, *ast.walk(tree)][::11]:
            for kinds in kinds_tried:
                found = of_kinds(node, kinds)
                expected = [n for n in ast.walk(node) if type(n) in kinds]
                assert len(found) == len(expected) and {id(n) for n in found} == {id(n) for n in expected}
                count += len(expected)
    assert count > 10_000


def test_statements_are_the_walks_statements_in_its_order():
    """astwalk.statements (used by steps looking for imports) yields what walk yields of statements, except
    handlers and match cases, in the same order, and never enters an expression."""
    from trnready.astwalk import statements

    kinds = (ast.stmt, ast.excepthandler, ast.match_case)
    every = EVERY_KIND.replace("def f[T]", "def f").replace("type Alias = list[int]", "Alias = 1")
    nested = ("if a:\n    def f():\n        try:\n            import x\n        except E:\n"
              "            from y import z\nelse:\n    for i in j:\n        while k:\n            import w\n"
              "    else:\n        import v\n")
    count = 0
    for text in [every, nested, *_sources()]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        expected = [n for n in walk(tree) if n is tree or isinstance(n, kinds)]
        assert list(statements(tree)) == expected
        count += len(expected)
    assert count > 10_000
    assert list(statements(ast.parse("x = lambda: 1"))).__len__() == 2


def test_calls_are_the_walks_calls_kept_on_the_tree():
    from trnready.astwalk import calls

    tree = ast.parse("f(g(x), h)\nclass C:\n    def m(self):\n        return k(1)[j()]\n")
    got = calls(tree)
    assert got == [n for n in ast.walk(tree) if type(n) is ast.Call]
    assert [n.func.id for n in got] == ["f", "g", "k", "j"]
    assert calls(tree) is got  # found once per tree


def test_own_statements_are_a_blocks_statements_in_source_order_without_entering_definitions():
    from trnready.astwalk import own_statements

    tree = ast.parse(
        "a = 1\n"
        "if a:\n"
        "    b = 2\n"
        "else:\n"
        "    c = 3\n"
        "try:\n"
        "    d = 4\n"
        "except E:\n"
        "    e = 5\n"
        "finally:\n"
        "    f = 6\n"
        "def g():\n"
        "    h = 7\n"
        "class K:\n"
        "    i = 8\n"
        "for j in k:\n"
        "    with m() as n:\n"
        "        o = 9\n")
    got = [(type(s).__name__, s.lineno) for s in own_statements(tree.body)]
    assert got == [("Assign", 1), ("If", 2), ("Assign", 3), ("Assign", 5), ("Try", 6), ("Assign", 7),
                   ("Assign", 9), ("Assign", 11), ("FunctionDef", 12), ("ClassDef", 14), ("For", 16),
                   ("With", 17), ("Assign", 18)]
