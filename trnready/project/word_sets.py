"""The set of whole words of a text, for the project steps that ask many names of every file.

`never-referenced` and `never-imported` asked each file's text, for each of a hundred names or module stems, "is it
a substring?" before checking for a whole word: a hundred scans of every text (about 1.5 s of CPU on 1,000 files).
One pass that splits the text into its words answers all of them: a name occurs as a whole word (not after or
before a letter, digit or underscore: `str.isalnum` or `_`, which is exactly what the regex `\\w` matches) if and
only if it is one of the text's words. The split runs on the UTF-8 bytes, where `bytes.translate` turns every ASCII
byte that is not a word character into a space (0.23 s for the 1,031 files of diffusers/src, against 0.56 s for
`re.findall(r"\\w+")`); a piece holding non-ASCII bytes is split again with the regex, since a non-ASCII character may
or may not be a word character.

Only a pure word (`is_word`) can be tested this way; a caller with anything else (a file stem `run-demo`) keeps
its substring test.
"""
from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
_PURE = re.compile(r"\w+\Z")
# ASCII letters, digits, `_` and every non-ASCII byte stay; any other byte becomes a space
_TABLE = bytes(b if b >= 128 or chr(b).isalnum() or b == 95 else 32 for b in range(256))


def is_word(s: str) -> bool:
    """`s` is one word: non-empty, made only of word characters."""
    return _PURE.match(s) is not None


class Words:
    """The whole words of one text. `name in words` (`name` a pure word, see `is_word`) is True when the text holds
    the name with no word character right before or after it."""

    __slots__ = ("_set",)

    def __init__(self, text: str):
        data = text.encode("utf-8", "surrogatepass")
        got = set(data.translate(_TABLE).split())
        if not data.isascii():
            for piece in [p for p in got if not p.isascii()]:
                got.discard(piece)
                got.update(w.encode("utf-8", "surrogatepass")
                           for w in _WORD.findall(piece.decode("utf-8", "surrogatepass")))
        self._set = got

    def __contains__(self, name: str) -> bool:
        return name.encode("utf-8", "surrogatepass") in self._set

    def bloom(self) -> WordBloom:
        return WordBloom(self._set)


class WordBloom:
    """A small lossy record of a text's words (one hash, 16 bits a word): `may(name)` is False only when the name is
    not one of them, and True for about one other name in sixteen. For a step that asks the same files again for a
    few more names, where keeping every file's `Words` would hold megabytes (40 MiB for 1,000 files)."""

    __slots__ = ("_bits", "_mask")

    def __init__(self, words):
        mask = (1 << max(6, (16 * len(words)).bit_length())) - 1
        bits = bytearray((mask + 1) >> 3)
        for w in words:
            h = hash(w) & mask
            bits[h >> 3] |= 1 << (h & 7)
        self._bits, self._mask = bytes(bits), mask

    def may(self, name: str) -> bool:
        h = hash(name.encode("utf-8", "surrogatepass")) & self._mask
        return bool(self._bits[h >> 3] & (1 << (h & 7)))
