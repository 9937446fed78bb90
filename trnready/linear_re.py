"""Regular expressions from catalogues other than the built-in one, compiled for linear-time matching.

Python's `re` backtracks: `(a+)+$` takes seconds on 30 characters and has no timeout, so a
catalogue that a scanned repository can name (its trnready.toml sets `catalogue` and
`extend-catalogue`) could hang a scan with one pattern. Those patterns are compiled with RE2,
whose matching time is linear in the line; RE2 has no lookaround or backreferences, and a
pattern using them falls back to `re` only when it has no backreference and no quantifier over a
part that itself repeats or alternates (the shapes that backtrack exponentially, `(a+)+`, `(a|ab)*`);
otherwise it is a catalogue error naming the rule. The built-in catalogue is reviewed with
trnready and keeps `re`.
"""
from __future__ import annotations

import contextvars
import re

try:  # the parser behind re.compile (renamed in 3.11)
    from re import _constants as _c, _parser as _sre_parse  # type: ignore[attr-defined]  # mypy checks as 3.10
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c
    import sre_parse as _sre_parse

# True while a catalogue other than the built-in one is being parsed.
LINEAR = contextvars.ContextVar("trnready_linear_regex", default=False)


class PatternError(ValueError):
    pass


def compile_pattern(pattern: str):
    """`pattern` compiled with `re`, or with RE2 while LINEAR is set. Raises PatternError."""
    if not isinstance(pattern, str):
        raise PatternError(f"expected a string, got {type(pattern).__name__}")
    if not LINEAR.get():
        try:
            return re.compile(pattern)
        except re.error as e:
            raise PatternError(str(e)) from None
    try:
        import re2
    except ImportError:
        raise PatternError("catalogues other than the built-in one are matched with RE2, and the google-re2 "
                           "package is not installed (pip install google-re2)") from None
    options = re2.Options()
    options.log_errors = False  # the error becomes our one-line catalogue message instead
    try:
        compiled = re.compile(pattern)  # the same syntax errors and messages as the built-in catalogue
    except re.error as e:
        raise PatternError(str(e)) from None
    try:
        return re2.compile(pattern, options)
    except re2.error:
        pass  # lookaround or a backreference: RE2 cannot run it
    problem = _backtracking_risk(_sre_parse.parse(pattern))
    if problem:
        raise PatternError(f"{problem}: catalogues other than the built-in one are matched in linear time "
                           f"(RE2), and a pattern RE2 cannot run (lookaround) must not nest quantifiers")
    return compiled


_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT} | ({_c.POSSESSIVE_REPEAT} if hasattr(_c, "POSSESSIVE_REPEAT") else set())


def _children(op, av):
    if op in _REPEATS:
        return [av[2]]
    if op is _c.SUBPATTERN:
        return [av[-1]]
    if op is _c.BRANCH:
        return list(av[1])
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return [av[1]]
    if op is _c.GROUPREF_EXISTS:
        return [x for x in av[1:] if x is not None]
    if getattr(_c, "ATOMIC_GROUP", None) is op:
        return [av]
    return []


def _varies(sub) -> bool:
    """Whether a parsed sub-pattern holds a repeat (more than once) or an alternation."""
    for op, av in sub:
        if op is _c.BRANCH or (op in _REPEATS and av[1] > 1):
            return True
        if any(_varies(child) for child in _children(op, av)):
            return True
    return False


def _backtracking_risk(sub) -> str | None:
    for op, av in sub:
        if op in (_c.GROUPREF, _c.GROUPREF_EXISTS):
            return "a backreference"
        if op in _REPEATS and av[1] > 1 and _varies(av[2]):
            return "a quantifier over a part that repeats or alternates"
        for child in _children(op, av):
            problem = _backtracking_risk(child)
            if problem:
                return problem
    return None
