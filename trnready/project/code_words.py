"""How often a Python file's code names an identifier: what `Callers.mentions` counts in Python sources.

Counting a function's name as a whole word over the text counted its docstrings and comments too: a common name
(`attention`, `forward_features`) written in prose anywhere in the project left every caller unknown (HunyuanDiT's
`attention(q, k, v, ..., mask=None)`: 61 words, 5 of them code). Here the comments and string literals of a file
are located once (one regular expression over the text: the tokenizer took 18 s on diffusers/src, this a fraction
of a second) and a mention counts when it lies outside them; a string literal that is one name or ends a dotted path
with it (`getattr(m, "attention")`, `"pkg.ops.attention"`, `"pkg.ops:attention"`) counts too: a name looked up at
run time still counts as a mention that no resolved call accounts for. Comments and prose strings do not.
"""
from __future__ import annotations

import bisect
import re

_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_TAIL = re.compile(r"[.:]([A-Za-z_]\w*)\Z")
_PREFIX = re.compile(r"^[rRbBuU]{0,2}")  # not f: an f-string computes its text
# A comment, or a string literal (triple-quoted first). Scanned left to right, so a `#` inside a string belongs to the
# string and a quote inside a comment to the comment. The leading lookahead lets the regex engine skip every position
# that cannot start a span by one character-class test, and the string bodies are written as unrolled loops
# (`[^"\\]*(?:\\.[^"\\]*)*`) instead of a lazy `(?:\\.|[^\\])*?`: 1.4-3x faster, same spans.
_QUOTED = (r"""(?:\"\"\"[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*\"\"\"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"""
           r"""|(?P<open>\"\"\"|''')|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*')""")
_SPANS = re.compile(r"(?=[#'\"rRbBuUfF])(?:#[^\n]*|(?:(?<![\w])[rRbBuUfF]{1,2})?" + _QUOTED + ")", re.S)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


class CodeWords:
    """The comment and string spans of one file's text. None from `of` when a triple-quoted string never closes
    (counted as plain text then)."""

    __slots__ = ("text", "starts", "ends")

    def __init__(self, text: str, starts: list, ends: list):
        self.text = text
        self.starts = starts
        self.ends = ends

    @classmethod
    def of(cls, text: str):
        starts: list = []
        ends: list = []
        for m in _SPANS.finditer(text):
            if m.group("open") is not None:  # a triple quote that never closes: the file does not tokenize
                return None
            starts.append(m.start())
            ends.append(m.end())
        return cls(text, starts, ends)

    def _span(self, at: int) -> int:
        """The index of the span holding position `at`, or -1."""
        i = bisect.bisect_right(self.starts, at) - 1
        return i if i >= 0 and at < self.ends[i] else -1

    def count(self, name: str, attribute: bool) -> int:
        text, size = self.text, len(name)
        count, at = 0, text.find(name)
        quoted: set = set()
        while at >= 0:
            end = at + size
            span = self._span(at)
            if span >= 0:
                if span not in quoted:
                    quoted.add(span)
                    lit = text[self.starts[span]:self.ends[span]]
                    # a dict value (`{"name": "transformer", "id": 2844}`, a dataset's class label) is data, never
                    # an attribute looked up by name
                    count += _quoted_name(lit) == name and (
                        not attribute or "." in lit or not _after_colon(text, self.starts[span])) and (
                        attribute or not _data_keyword_value(text, self.starts[span])) and \
                        not _str_method_argument(text, self.starts[span])
            elif not (at and _word_char(text[at - 1])) and not (end < len(text) and _word_char(text[end])):
                if attribute:
                    back = at - 1
                    while back >= 0 and (text[back] in " \t" or text[back] == "\n" and back and text[back - 1] == "\\"):
                        back -= 1 if text[back] != "\n" else 2
                    # `x.name` on one logical line, not `...` (an ellipsis, `from ...pkg import`), not a dot in a string
                    count += back >= 0 and text[back] == "." and text[max(back - 2, 0):back + 1] != "..." \
                        and self._span(back) < 0 and not _module_path(text, at)
                else:
                    count += not _keyword_name(text, at, end)
            at = text.find(name, at + 1)
        return count


# Methods of `str` whose argument is text, never a name looked up: `key.startswith("decoder")` (OneFormer's
# pos_embed.py beside DETR's `self.decoder`) tests a checkpoint key.
_STR_METHODS = frozenset({"startswith", "endswith", "split", "rsplit", "replace", "find", "rfind", "index", "rindex",
                          "count", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix", "partition",
                          "rpartition"})
_STR_CALL = re.compile(r"\.\s*([A-Za-z_]\w*)\s*\(\s*\Z")


def _str_method_argument(text: str, at: int) -> bool:
    """The string starting at `at` is the first argument of a `str` method (`key.startswith("decoder")`)."""
    m = _STR_CALL.search(text, max(0, at - 40), at)
    return m is not None and m.group(1) in _STR_METHODS


# Keywords whose string value may name a function or class to look up (a registry's `type="Head"`, a callback)
_NAMING_KEYWORDS = frozenset({"type", "name", "fn", "func", "function", "method", "target", "callback", "attr",
                              "cls", "class_name", "module"})


def _data_keyword_value(text: str, at: int) -> bool:
    """The string starting at `at` is the value of a keyword argument that names no function (`split='test'`,
    `mode="train"`): data, not a lookup by name."""
    i = at - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 1 or text[i] != "=" or text[i - 1] in "=!<>":
        return False
    i -= 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    j = i
    while j >= 0 and _word_char(text[j]):
        j -= 1
    word = text[j + 1:i + 1]
    k = j
    while k >= 0 and text[k] in " \t\n":
        k -= 1
    return bool(word) and word not in _NAMING_KEYWORDS and k >= 0 and text[k] in "(,"


def _keyword_name(text: str, at: int, end: int) -> bool:
    """The word at `at` is the name of a keyword argument or of a parameter with a default (`CIFAR10(root,
    train=True)`, `def f(x, train=False)`): after `(` or `,` and before a single `=`. It names no function."""
    i = at - 1
    while i >= 0 and text[i] in " \t\n":
        i -= 1
    if i < 0 or text[i] not in "(,":
        return False
    j = end
    while j < len(text) and text[j] in " \t":
        j += 1
    return j < len(text) and text[j] == "=" and text[j + 1:j + 2] != "="


def _after_colon(text: str, at: int) -> bool:
    """The last character before `at` that is no blank is a colon."""
    i = at - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and text[i] == ":"


def _module_path(text: str, at: int) -> bool:
    """The word at `at` is part of the module path of an import statement (`from .transformer import X`,
    `import pkg.transformer as t`): a module, not an attribute of an object."""
    start = text.rfind("\n", 0, at) + 1
    head = text[start:at].lstrip()
    if head.startswith("import "):
        return True
    return head.startswith("from ") and " import" not in head


def _quoted_name(lit: str) -> str:
    """The identifier a string literal names: the whole content, or the last part of a dotted path."""
    body = _PREFIX.sub("", lit)
    if len(body) > 202 or body[:1] not in ("'", '"') or body.startswith(("'''", '"""')):
        return ""
    content = body[1:-1]
    if _IDENT.match(content):
        return content
    m = _TAIL.search(content)
    return m.group(1) if m and " " not in content else ""
