"""One argument predicate of a call matcher tested against what a call passes: shared by the Python matcher
(match.py) and the config reader that reads a component node as a call (readers/component_calls.py), so the
two agree on every value."""
from __future__ import annotations

from .model import ArgPredicate
from .resolve import LIST
from .values import UNKNOWN, Drawn, same


def holds(p: ArgPredicate, passed, values) -> bool:
    op = p.op
    if op == "present":
        return passed is True
    if op == "absent":
        return passed is False
    if passed is None:
        return False  # hidden behind *args/**kwargs: never guess
    if op == "is-none":
        return not values or all(v is None for v in values)
    if op == "is-not-none":
        return any(v is not None for v in values)
    if op == "equals" or op == "in":
        return any(same(e, v) for v in values for e in p.values)
    if op == "not-equals":
        # Holds unless the argument is certainly the value: an unknown expression
        # (a variable, an attribute) may be anything else, so it counts.
        return not values or not all(same(e, v) for v in values for e in p.values)
    if op == "not-in":
        known = [v for v in values if v is not UNKNOWN and v is not LIST and type(v) is not Drawn]
        return any(not any(same(e, v) for e in p.values) for v in known)
    if op == "at-least":  # an integer known to be this large (2**40, 1 << 33, a constant bound to one)
        # or a host random draw that can reach it (a seed from random.randint(0, sys.maxsize))
        return any((type(v) is int and v >= p.values[0]) or (type(v) is Drawn and v.high >= p.values[0])
                   for v in values)
    if op == "lacks":
        # a list, tuple or set whose every element is known and none is listed: choices=["cpu", "cuda"] lacks
        # "neuron" (a single string lacks nothing: it is no collection);
        # an element that is not a literal (`["cpu", *extra]`, a variable) may be the missing one
        if not any(v is LIST for v in values):
            return False
        known = [v for v in values if v is not LIST]
        return bool(known) and all(v is not UNKNOWN and type(v) is not Drawn for v in known) \
            and not any(same(e, v) for v in known for e in p.values)
    if op == "matches":
        rx = p.values[0]
        return any(isinstance(v, str) and rx.search(v) for v in values)
    return False
