"""assert-message: code in the message of an `assert`, which runs only when the assertion fails."""
from __future__ import annotations

import ast

from .base import predicate


@predicate("assert-message")
def assert_message(ctx, hit) -> bool:
    """The match sits in the message expression of an `assert` statement (`assert ok.all(), f"bad rows
    {x[~ok]}"`): Python evaluates the message only after the test has failed, on the way to raising
    AssertionError (and not at all under `python -O`), so the code there never runs on a working path. The
    test expression itself is code that runs and still matches."""
    if not ctx.may_name("assert"):
        return False
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    st = ctx.statement_at(pos)
    if type(st) is not ast.Assert or st.msg is None:
        return False
    msg = st.msg
    return (msg.lineno, msg.col_offset) <= pos < (msg.end_lineno, msg.end_col_offset)
