"""pytest fixtures of a `conftest.py` that skip without CUDA, and the tests of other modules that request them.

A fixture such as

    @pytest.fixture(scope="session")
    def gpu_device():
        if not torch.cuda.is_available():
            pytest.skip("needs CUDA")
        return torch.device("cuda")

skips every test that requests it, directly or through another fixture (`def camera(gpu_device): ...`), on a
machine without CUDA, a Trainium host included. The per-file pass (neuron-guarded) knows the fixtures of the test
module itself; fixtures of a `conftest.py` reach the tests of its folder and below, which only the link step sees.
So each module's summary records:

- in `flags`, for a module defining fixtures: "@name" for a fixture that skips on a Neuron machine before it can
  return (a top-level `if <always true on Neuron>: pytest.skip(...)`, a call of a module function doing so, or a
  requested fixture of the module that skips), and "@=name" for every other fixture, which overrides a skipping
  one of a conftest further up;
- in `guards`, for a test module: [first line, last line, "@a|b", False] for each test function (`test*`, also
  methods) requesting fixtures it neither defines nor has parametrized.

project/flags.py guards a test's block when one of the fixtures it requests is, in the nearest `conftest.py` up
its folders that defines that name, a skipping one.
"""
from __future__ import annotations

import ast

MARK = "@"  # a fixture in `flags` and `guards` (a Python name never starts with it)
KEPT = "@="  # a fixture that does not skip

# Fixtures pytest itself provides: never a project's conftest fixture.
_BUILTIN = frozenset({"request", "tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory", "monkeypatch",
                      "capsys", "capfd", "capsysbinary", "capfdbinary", "caplog", "recwarn", "pytestconfig",
                      "cache", "doctest_namespace", "record_property", "record_testsuite_property",
                      "record_xml_attribute", "testdir", "pytester", "self", "cls", "subtests", "benchmark",
                      "mocker"})
MAX_FIXTURES = 200


def _functions(tree) -> list:
    out, stack = [], [tree.body]
    while stack:
        for st in stack.pop():
            if type(st) in (ast.FunctionDef, ast.AsyncFunctionDef):
                out.append(st)
            elif type(st) is ast.ClassDef:
                stack.append(st.body)
    return out


def fixture_flags(tree: ast.Module, values: dict, flags: list) -> list:
    """["@name" for each fixture of the module that skips on a Neuron machine, "@=name" for the others]."""
    from ..context._test_skips import skip_names
    from ..context.neuron_guarded import _Conditions, _exits, _fixture_name, _params, _returns, accelerator_words

    functions = _functions(tree)
    fixtures = [f for f in functions if _fixture_name(f)]
    if not fixtures:
        return []
    conds = _Conditions({f for f in flags if isinstance(f, str) and not f.startswith(MARK)},
                        frozenset(values.get("other-accelerators", ())), neuron=skip_names(values))
    conds.words = accelerator_words(values)
    memo: dict = {}
    helpers = [f for f in tree.body if type(f) is ast.FunctionDef and not _fixture_name(f)]
    skip_funcs: set = set()
    skip_fixtures: set = set()

    def skips_first(fn) -> bool:
        for i, st in enumerate(fn.body):
            call = st.value if type(st) in (ast.Expr, ast.Assign) else None
            direct = type(call) is ast.Call and type(call.func) is ast.Name and call.func.id in skip_funcs
            if direct or (type(st) is ast.If and conds.always(st.test) and _exits(st.body) == "skip"):
                return _returns(fn, memo)[0] >= i
        return False

    for _ in range(3):  # a chain of helpers and fixtures is short
        funcs = {f.name for f in helpers if skips_first(f)}
        named: dict = {}
        for f in fixtures:
            named.setdefault(_fixture_name(f), []).append(
                skips_first(f) or any(a.arg in skip_fixtures for a in _params(f)))
        now = {n for n, verdicts in named.items() if all(verdicts)}
        if funcs == skip_funcs and now == skip_fixtures:
            break
        skip_funcs, skip_fixtures = funcs, now
    names = dict.fromkeys(_fixture_name(f) for f in fixtures)
    return [MARK + n if n in skip_fixtures else KEPT + n for n in names][:MAX_FIXTURES]


def fixture_guards(tree: ast.Module) -> list:
    """`guards` entries [first line, last line, "@a|b", False] for the test functions of the module requesting
    fixtures the module does not define (a conftest's, judged by the link step)."""
    from ..context.neuron_guarded import _fixture_name, _params, _parametrized

    functions = _functions(tree)
    own = {_fixture_name(f) for f in functions} - {""}
    out = []
    for fn in functions:
        if not fn.name.startswith("test") or _fixture_name(fn):
            continue
        asked = [a.arg for a in _params(fn) if a.arg not in own and a.arg not in _BUILTIN]
        asked = [n for n in asked if n not in _parametrized(fn)]
        if asked:
            first = fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno
            out.append([first, fn.end_lineno or fn.lineno, MARK + "|".join(asked), False])
    return out


def skipping_fixture(summaries_flags, rel: str, name: str) -> bool:
    """Whether the fixture `name`, requested by a test of module `rel`, skips on a Neuron machine: in the nearest
    `conftest.py` up the module's folders that defines it. `summaries_flags(path)` -> that module's flags, or None
    when the project has no such module."""
    parts = rel.split("/")[:-1]
    while True:
        flags = summaries_flags("/".join(parts + ["conftest.py"]))
        if flags is not None:
            if MARK + name in flags:
                return True
            if KEPT + name in flags:
                return False
        if not parts:
            return False
        parts.pop()
