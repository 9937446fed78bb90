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

import base64 as _b64
import re
import sys as _sys
import zlib as _zlib
from array import array as _array
from bisect import bisect_left as _bisect_left
from functools import lru_cache as _lru_cache

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

    def among(self, encoded) -> set:
        """The words of the text among `encoded` (a set or dict of UTF-8 encoded pure words, `is_word`)."""
        return self._set & (encoded.keys() if isinstance(encoded, dict) else encoded)


class WordBloom:
    """A small lossy record of a text's words (one hash, 16 bits a word): `may(name)` is False only when the name is
    not one of them, and True for about one other name in sixteen. The hash is CRC-32, the same in every process:
    Python's `hash()` of bytes changes with each interpreter, and the steps reading these filters stop at budgets,
    so which names came up by chance decided their answers from one scan to the next (session 46: off-step guarded
    two Painter findings in one run and not in the next). For a step that asks the same files again for a
    few more names, where keeping every file's `Words` would hold megabytes (40 MiB for 1,000 files)."""

    __slots__ = ("_bits", "_mask")

    def __init__(self, words):
        mask = (1 << max(6, (16 * len(words)).bit_length())) - 1
        bits = bytearray((mask + 1) >> 3)
        for w in words:
            h = _zlib.crc32(w) & mask
            bits[h >> 3] |= 1 << (h & 7)
        self._bits, self._mask = bytes(bits), mask

    def may(self, name: str) -> bool:
        h = _zlib.crc32(name.encode("utf-8", "surrogatepass")) & self._mask
        return bool(self._bits[h >> 3] & (1 << (h & 7)))


# ------------------------------------------------------------------ kept between scans
# A file's words as kept in the result cache (cache.FileFacts "words"): the sorted CRC-32 of each word, base64. A
# name whose CRC is not there is not a word of the file; one whose CRC is there may be (another word with the same
# CRC), which the caller settles in the text. Native byte order: the store's name carries it.

WORDS_FACT = f"words-crc32-{_sys.byteorder}"


def packed_words(words: Words) -> str:
    """A file's Words as kept in the cache."""
    return _b64.b64encode(_array("I", sorted({_zlib.crc32(w) for w in words._set})).tobytes()).decode("ascii")


def packed_valid(fact) -> bool:
    return isinstance(fact, str) and len(fact) % 4 == 0


@_lru_cache(maxsize=65536)
def _crc(name: str) -> int:
    return _zlib.crc32(name.encode("utf-8", "surrogatepass"))


class KeptWords:
    """A file's words read back from the cache: `may(name)` is False only when the name is no word of the file."""

    __slots__ = ("_crcs",)

    def __init__(self, packed: str):
        crcs = _array("I")
        crcs.frombytes(_b64.b64decode(packed))
        self._crcs = crcs

    @classmethod
    def of(cls, packed):
        """The kept words, or None when `packed` is not of the right shape."""
        try:
            return cls(packed)
        except (ValueError, TypeError):
            return None

    def may(self, name: str) -> bool:
        crcs, h = self._crcs, _crc(name)
        i = _bisect_left(crcs, h)
        return i < len(crcs) and crcs[i] == h

    def may_any(self, names) -> list:
        """The names that may be words of the file (one call for a step asking a hundred names of every file)."""
        crcs, n, out = self._crcs, len(self._crcs), []
        for name in names:
            h = _crc(name)
            i = _bisect_left(crcs, h)
            if i < n and crcs[i] == h:
                out.append(name)
        return out


def kept_words(cache, sf, text_of) -> tuple:
    """(text, its `Words`, None) when derived here from the file's text (and kept in the cache for the next scan), or
    (None, None, `KeptWords`) when kept for the file's current content. `cache`: the scan's ResultCache or None."""
    store = cache.facts(WORDS_FACT) if cache is not None and _array("I").itemsize == 4 else None
    got = store.get(sf.rel, packed_valid) if store is not None else None
    kept = KeptWords.of(got) if got is not None else None
    if kept is not None:  # (not held by the store: each file is asked once a step)
        return None, None, kept
    text = text_of(sf) or ""
    words = Words(text)
    if store is not None:
        store.put(sf.rel, packed_words(words))
    return text, words, None


def kept_only(cache, sf):
    """The file's `KeptWords` when the cache keeps them for its current content, else None (nothing derived)."""
    store = cache.facts(WORDS_FACT) if cache is not None and _array("I").itemsize == 4 else None
    return store.decoded(sf.rel, packed_valid, KeptWords.of) if store is not None else None
