"""Three-valued truth of a test: `not`, `and` and `or` folded over the value of each other node."""
from __future__ import annotations

import ast


def truth(e, leaf):
    """True / False when the test's value is fixed, None when it depends on anything. `leaf(node)` gives the
    value of a node that is neither `not` nor `and` / `or` (None when unknown). `x and False` is false whatever x
    is, `x or True` true."""
    k = type(e)
    if k is ast.UnaryOp and type(e.op) is ast.Not:
        v = truth(e.operand, leaf)
        return None if v is None else not v
    if k is ast.BoolOp:
        decides = type(e.op) is ast.Or
        unknown = False
        for part in e.values:
            v = truth(part, leaf)
            if v is decides:
                return decides
            if v is None:
                unknown = True
        return None if unknown else not decides
    return leaf(e)
