"""The truth of a test on the running Python's version, on every Python TorchNeuron runs on (3.12 to 3.14).

`if sys.version_info[0] < 3:`, `if six.PY2:`, `if torch._six.PY3: ... else: import imp`: the Python 2 arm never runs
where the port runs (dead-branch). A test decides only when it has the same value on 3.12, 3.13 and 3.14
(`sys.version_info >= (3, 13)` decides nothing).
"""
from __future__ import annotations

import ast
import operator
import re

from .base import dotted

MINORS = (12, 13, 14)
# Conventional names of "is this Python 2 / 3" flags: six.PY2, torch._six.PY3, IS_PY3, PYTHON2, PY3K
_FLAG = re.compile(r"^(?:IS_)?PY(?:THON)?_?([23])K?$", re.I)
_OPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq,
        ast.NotEq: operator.ne}
_VERSION_INFO = frozenset({"sys.version_info", "version_info"})


class _Unknown(Exception):
    pass


def version_flag(e) -> bool | None:
    """`PY3` / `six.PY2` / `IS_PY3`: True for a flag naming Python 3, False for Python 2; None for any other
    name."""
    name = e.id if type(e) is ast.Name else e.attr if type(e) is ast.Attribute else None
    m = _FLAG.match(name) if name else None
    return None if m is None else m.group(1) == "3"


def version_test(e) -> bool | None:
    """The value of a comparison of the running Python's version with literals, when it is the same on every
    version of MINORS; None otherwise (or when it is no such comparison)."""
    if type(e) is not ast.Compare or not any(_mentions_version(x) for x in (e.left, *e.comparators)):
        return None
    seen = set()
    for minor in MINORS:
        try:
            seen.add(_compare(e, minor))
        except _Unknown:
            return None
    return seen.pop() if len(seen) == 1 else None


def _mentions_version(e) -> bool:
    while type(e) in (ast.Subscript, ast.Attribute):
        if type(e) is ast.Attribute and dotted(e) in _VERSION_INFO:
            return True
        e = e.value
    return type(e) is ast.Name and e.id == "version_info"


def _compare(e: ast.Compare, minor: int) -> bool:
    left = _eval(e.left, minor)
    for op, right_node in zip(e.ops, e.comparators):
        fn = _OPS.get(type(op))
        if fn is None:
            raise _Unknown
        right = _eval(right_node, minor)
        try:
            if not fn(left, right):
                return False
        except TypeError:
            raise _Unknown from None
        left = right
    return True


def _eval(e, minor: int):
    k = type(e)
    if k is ast.Constant and type(e.value) is int:
        return e.value
    if k is ast.Tuple and all(type(x) is ast.Constant and type(x.value) is int for x in e.elts):
        return tuple(x.value for x in e.elts)
    info = (3, minor, 0, "final", 0)
    if (k is ast.Attribute or k is ast.Name) and (dotted(e) in _VERSION_INFO):
        return info
    if k is ast.Attribute and e.attr in ("major", "minor") and dotted(e.value) in _VERSION_INFO:
        return info[0] if e.attr == "major" else info[1]
    if k is ast.Subscript and dotted(e.value) in _VERSION_INFO:
        s = e.slice
        if type(s) is ast.Constant and type(s.value) is int and 0 <= s.value < 3:
            return info[s.value]
        if type(s) is ast.Slice and s.lower is None and s.step is None and type(s.upper) is ast.Constant \
                and type(s.upper.value) is int and 0 < s.upper.value <= 3:
            return info[:s.upper.value]
    raise _Unknown
