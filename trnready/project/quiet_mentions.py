"""Mentions of a project name that neither call it nor hand it on: the callers step (`callers.py`) does not count
them when it asks whether every mention of a function or class is accounted for.

- `super(Cls, self)`: the old spelling of `super()` in the class's own methods (InstantMesh's
  `super(PerspectiveCamera, self).__init__()`); it names the class to find its base, and constructs nothing.
- an entry of the module's `__all__` (`__all__ = ['FlexiCubes']`): an export list; a star import of it still
  calls the name where it is used, and that call is a mention of its own.
- a type test (`isinstance(task, Word)`) and a nested class read through the class (`Word._StopToken`, a name
  starting with a capital): detectron2's demo `AsyncPredictor` (session 41);
- a type annotation: a parameter's (`s2m_ctrl: S2MController,`, `ctrl: Optional[Ctrl] = None`), a variable's
  (`self.ctrl: Ctrl = ...`) or a return's (`-> Ctrl:`), quoted or not. It names the type of a value built
  elsewhere (XMem's GUI takes the `S2MController` its demo script constructs with `device=device`, session 41).
  A dict value (`{"s2m": S2MController}`) is no annotation: a registry hands the class on.

Read from the text of the few files naming the word (the step has them at hand), so the per-file summaries are
unchanged."""
from __future__ import annotations

import re

_ALL = re.compile(r"__all__\s*\+?=\s*[\[(]([^\])]*)[\])]")
# `name: Word`, `name: Optional[Word]`, `-> Word`, `name: "Word"`: what precedes the word on its line, and what may
# follow it before an annotation ends (`,`, `)`, `=`, `:` of a def line, a line end); the identifier before the colon
# tells a parameter or variable from a dict key
_BEFORE = re.compile(r"(?:(?<![\w.\"'\]})])(?!(?:lambda|else|try|finally)\b)[A-Za-z_][\w.]*[ \t]*:[ \t]*|->[ \t]*)"
                     r"(?:Optional\[)?([\"']?)$")
_AFTER = re.compile(r"\]?[ \t]*(?:[,)=:]|$)", re.M)
# `isinstance(task, AsyncPredictor._StopToken)`, `isinstance(x, (A, Word))`: a type test
_TYPE_TEST = re.compile(r"\b(?:isinstance|issubclass)\([^()]*,[ \t]*\(?[\w., \t]*$")
# `Word._StopToken`, `Word.Config`: a nested class (or class constant) read through the class, nothing constructed
_NESTED = re.compile(r"\._*[A-Z]")  # (not prose: "True if ESPNet. False for ESPNet-C")


def quiet_mentions(text: str, word: str) -> int:
    """How many mentions of word in text are quiet (the module docstring's list). Substring searches first: the
    callers step asks this of every file naming a candidate's word, most of them large."""
    if word not in text:
        return 0
    n = text.count(f"super({word}, self)") + text.count(f"super({word},self)")
    i = text.find("__all__")
    while i >= 0:
        if i == 0 or text[i - 1] == "\n":  # a module-level assignment
            m = _ALL.match(text, i)
            if m is not None:
                body = m.group(1)
                n += body.count(f'"{word}"') + body.count(f"'{word}'")
        i = text.find("__all__", i + 7)
    # type tests, nested classes and annotations: each occurrence of the word looked at where it is (a regular
    # expression over the whole text for every word asked about cost a tenth of a cold scan)
    i = text.find(word)
    while i >= 0:
        j = i + len(word)
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")) and \
                (j == len(text) or not (text[j].isalnum() or text[j] == "_")):
            before = text[text.rfind("\n", 0, i) + 1:i]
            if _NESTED.match(text, j) or ("instance(" in before or "subclass(" in before) and \
                    _TYPE_TEST.search(before):
                n += 1
                i = text.find(word, j)
                continue
            m = _BEFORE.search(before) if ":" in before or ">" in before else None
            # `lambda x: Word` returns the class: a hand-on, not an annotation; a comment is no code mention at all
            if m is not None and "lambda" not in before and "#" not in before:
                quote = m.group(1)
                if text.startswith(quote, j) and _AFTER.match(text, j + len(quote)):
                    n += 1
        i = text.find(word, j)
    return n
