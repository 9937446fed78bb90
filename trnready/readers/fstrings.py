"""Python 3.12 f-strings (PEP 701) written so the running parser reads them, character for character.

TorchNeuron runs on Python 3.12-3.14, and code written for it uses what 3.12 allows inside an f-string's
replacement fields: the outer quote again (`f"{row["name"]}"`), a backslash (`f"{'\\n'.join(xs)}"`), a comment or
a line break. An older parser rejects the whole file, which would leave its device code unscanned. `backport`
rewrites each such f-string in place: an inner string that reuses the outer quote takes the other quote when
that changes nothing else, and any other f-string of the new kind becomes a blank string of the same extent.
Every other character keeps its line and column, so findings keep their places; the blanked text is not scanned
(a device string inside such an f-string's braces is lost, the rest of the file is not).
"""
from __future__ import annotations

_PREFIX_CHARS = frozenset("rRbBuUfF")
_OPEN, _CLOSE = "([{", ")]}"


class _Giveup(Exception):
    """The text is not one this lexer follows (unterminated string, unbalanced field): leave it to the parser."""


def backport(text: str) -> str | None:
    """The text with every Python 3.12 f-string rewritten for an older parser, or None when it holds none (or
    one this lexer cannot follow)."""
    try:
        edits = _Lexer(text).run()
    except (_Giveup, IndexError):
        return None
    if not edits:
        return None
    out = list(text)
    for start, new in edits:
        out[start:start + len(new)] = new
    return "".join(out)


class _Lexer:
    def __init__(self, text: str):
        self.text = text
        self.edits: list[tuple[int, str]] = []

    def run(self) -> list:
        text, i, n = self.text, 0, len(self.text)
        while i < n:
            c = text[i]
            if c == "#":
                j = text.find("\n", i)
                i = n if j < 0 else j
            elif c in "'\"":
                start = self._prefix_start(i)
                end, quote, is_f, _ = self._string(start, i)
                if is_f:
                    self._top_fstring(start, i, end, quote)
                i = end
            else:
                i += 1
        return self.edits

    def _prefix_start(self, quote_at: int) -> int:
        """Where the string's prefix (`rb`, `f`, `Rf`) starts: up to two prefix letters right before the quote
        that do not end a longer name."""
        text, k = self.text, quote_at
        while k > 0 and quote_at - k < 2 and text[k - 1] in _PREFIX_CHARS:
            k -= 1
        if k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
            return quote_at
        return k

    def _quote(self, quote_at: int) -> str:
        text = self.text
        return text[quote_at] * 3 if text.startswith(text[quote_at] * 3, quote_at) else text[quote_at]

    def _string(self, start: int, quote_at: int, found: list | None = None):
        """-> (end, quote, is an f-string, has a backslash) of the literal whose prefix starts at `start`. For an
        f-string, `found` collects what its fields hold that an old parser rejects."""
        text = self.text
        q = self._quote(quote_at)
        k = quote_at + len(q)
        is_f = "f" in text[start:quote_at].lower()
        slash = False
        while True:
            if text.startswith(q, k):
                return k + len(q), q, is_f, slash
            c = text[k]
            if c == "\\":
                slash, k = True, k + 2
            elif c == "\n" and len(q) == 1:
                raise _Giveup
            elif is_f and c == "{":
                if text.startswith("{", k + 1):
                    k += 2
                else:
                    k = self._field(k + 1, q, found if found is not None else [])
            else:
                k += 1

    def _field(self, k: int, outer: str, found: list) -> int:
        """Scan one replacement field from just after its `{` -> the index after its `}`. Appends to `found`
        ("quote", start, quote_at, end) for an inner plain string in the outer quote, ("hard", ...) for any other
        3.12-only thing (a backslash, a comment, a line break in a one-line f-string, a nested f-string that
        needs 3.12)."""
        text, depth = self.text, 0
        while True:
            c = text[k]
            if c in "'\"":
                start = self._prefix_start(k)
                inner: list = []
                end, q, is_f, slash = self._string(start, k, inner)
                if inner or slash:
                    found.append(("hard", start, k, end))
                elif q[0] == outer[0] and (len(outer) == 1 or len(q) == 3):
                    # a one-quote string inside `f"""..."""` was always allowed
                    found.append(("quote" if not is_f and len(q) == 1 else "hard", start, k, end))
                k = end
            elif c == "#":
                found.append(("hard", k, k, k))
                j = text.find("\n", k)
                if j < 0:
                    raise _Giveup
                k = j
            elif c == "\\":
                found.append(("hard", k, k, k))
                k += 1
            elif c == "\n":
                if len(outer) == 1:
                    found.append(("hard", k, k, k))
                k += 1
            elif c in _OPEN:
                depth, k = depth + 1, k + 1
            elif c in _CLOSE and depth:
                depth, k = depth - 1, k + 1
            elif c == "}":
                return k + 1
            elif depth == 0 and c == ":":
                return self._spec(k + 1, outer, found)
            else:
                k += 1

    def _spec(self, k: int, outer: str, found: list) -> int:
        """A format spec after `:`: literal text up to the field's `}`, with nested fields (`{x:>{width}}`)."""
        text = self.text
        while True:
            c = text[k]
            if c == "}":
                return k + 1
            if c == "{":
                k = self._field(k + 1, outer, found)
            elif text.startswith(outer, k) or (c == "\n" and len(outer) == 1):
                raise _Giveup
            else:
                k += 1

    def _top_fstring(self, start: int, quote_at: int, end: int, q: str) -> None:
        found: list = []
        self._string(start, quote_at, found)
        if not found:
            return
        other = "'" if q[0] == '"' else '"'
        swaps = []
        for kind, _s, inner_at, inner_end in found:
            literal = self.text[inner_at:inner_end]
            if kind != "quote" or other in literal[1:-1]:
                break
            swaps += [(inner_at, other), (inner_end - 1, other)]
        else:
            self.edits += swaps
            return
        self.edits.append((start, _blank(self.text[start:end])))


def _blank(body: str) -> str:
    """A plain string literal as long as `body`, with its line breaks where they were."""
    if "\n" not in body:
        if len(body) < 2:
            raise _Giveup
        return '"' + " " * (len(body) - 2) + '"'
    first, last = body.index("\n"), len(body) - 1 - body.rindex("\n")
    if first < 3 or last < 3:
        raise _Giveup
    middle = "".join("\n" if ch == "\n" else " " for ch in body[3:-3])
    return '"""' + middle + '"""'
