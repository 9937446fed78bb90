"""The small value lattice used by constant propagation.

An argument is evaluated to a tuple of possible values. Each item is a Python
literal (str, int, float, bool, None), a `QName` (a reference that resolved to
a qualified name such as ``torch.float64``) or `UNKNOWN`.
"""
from __future__ import annotations


class QName(str):
    """A dotted name an expression resolved to (kept apart from string literals)."""

    __slots__ = ()

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"QName({str(self)!r})"


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "UNKNOWN"


UNKNOWN = _Unknown()


class Drawn:
    """A random integer drawn by the host (`random.randint(0, sys.maxsize)`): not one known value, but one that
    can be as large as `high`. Only the at-least predicate reads it; to every other test it is unknown."""

    __slots__ = ("high",)

    def __init__(self, high: int):
        self.high = high

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Drawn(<= {self.high})"
ABSENT = ("<absent>",)  # marker tuple: the argument was not passed and has no default


def same(expected, actual) -> bool:
    """Does a catalogue value equal an evaluated argument value?

    A catalogue string matches a string literal or a resolved qualified name of
    the same text; True stays apart from 1, and numbers never equal strings.
    """
    if actual is UNKNOWN or type(actual) is Drawn:
        return False
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, str):
        return isinstance(actual, str) and str(actual) == expected
    if expected is None:
        return actual is None
    return not isinstance(actual, str) and actual is not None and expected == actual
