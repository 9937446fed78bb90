"""Mentions of a project name that neither call it nor hand it on: the callers step (`callers.py`) does not count
them when it asks whether every mention of a function or class is accounted for.

- `super(Cls, self)`: the old spelling of `super()` in the class's own methods (InstantMesh's
  `super(PerspectiveCamera, self).__init__()`); it names the class to find its base, and constructs nothing.
- an entry of the module's `__all__` (`__all__ = ['FlexiCubes']`): an export list; a star import of it still
  calls the name where it is used, and that call is a mention of its own.

Read from the text of the few files naming the word (the step has them at hand), so the per-file summaries are
unchanged."""
from __future__ import annotations

import re

_ALL = re.compile(r"^__all__\s*\+?=\s*[\[(]([^\])]*)[\])]", re.M)


def quiet_mentions(text: str, word: str) -> int:
    """How many mentions of word in text are `super(word, self)` or an `__all__` entry."""
    if word not in text:
        return 0
    n = len(re.findall(r"\bsuper\(\s*" + re.escape(word) + r"\s*,\s*self\s*\)", text))
    if "__all__" in text:
        quoted = re.compile(r"""(['"])""" + re.escape(word) + r"\1")
        for m in _ALL.finditer(text):
            n += len(quoted.findall(m.group(1)))
    return n
