"""The identifiers a Python file's code names: what `Callers.mentions` counts in Python sources.

Counting a function's name as a whole word over the text counted its docstrings and comments too: a common name
(`attention`, `forward_features`) written in prose anywhere in the project left every caller unknown (HunyuanDiT's
`attention(q, k, v, ..., mask=None)`: 61 words, 5 of them code). Here a Python file is tokenized once and its code
counted: identifiers (all, and those after a `.`), and string literals that are one name or end a dotted path with it
(`getattr(m, "attention")`, `"pkg.ops.attention"`, `"pkg.ops:attention"`): a name looked up at run time still
counts as a mention that no resolved call accounts for. Comments and prose strings do not.
"""
from __future__ import annotations

import io
import re
import tokenize
from collections import Counter

_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_TAIL = re.compile(r"[.:]([A-Za-z_]\w*)\Z")
_PREFIX = re.compile(r"^[rRbBuU]{0,2}")


class CodeWords:
    """Counters of one file's code: `names` (every identifier), `attrs` (identifiers right after a `.`) and
    `quoted` (string literals naming an identifier). None from `of` when the text does not tokenize."""

    __slots__ = ("names", "attrs", "quoted")

    def __init__(self):
        self.names: Counter = Counter()
        self.attrs: Counter = Counter()
        self.quoted: Counter = Counter()

    @classmethod
    def of(cls, text: str):
        out = cls()
        prev = None
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                t = tok.type
                if t == tokenize.NAME:
                    out.names[tok.string] += 1
                    if prev is not None and prev.type == tokenize.OP and prev.string == ".":
                        out.attrs[tok.string] += 1
                elif t == tokenize.STRING:
                    word = _quoted_name(tok.string)
                    if word:
                        out.quoted[word] += 1
                if t not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                    prev = tok
        except (tokenize.TokenError, IndentationError, SyntaxError, ValueError):
            return None
        return out

    def count(self, name: str, attribute: bool) -> int:
        return (self.attrs if attribute else self.names)[name] + self.quoted[name]


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
