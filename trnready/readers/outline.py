"""YAML and JSON text -> the keys and scalar values it holds, each with its key path and exact position.

Not a YAML parser: an outline reader that keeps line and column of every key and scalar, never raises,
and reads templated files (Helm `{{ }}`, GitHub `${{ }}`, Jinja) that a full parser rejects. It covers what
configs and CI files use: block mappings and sequences (also the compact `key:\\n- item` form), flow
collections (`[3.9, "3.10"]`, `{mode: max-autotune, dynamic: true}`, whole JSON documents, over several
lines), quoted and plain scalars, comments, anchors and tags, and block scalars (`run: |`), whose text is
kept as one value. Merge keys, aliases and multi-line plain scalars are not followed.

One pass over the lines and one over each flow collection's characters: linear in the input.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A mapping key at the start of the (dash-stripped) text: quoted, or plain up to `:` + space/end.
_KEY = re.compile(r"""(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#\[\]{},&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?)\s*:(?=\s|$)""")
_PROPS = re.compile(r"^(?:[&!][^\s]*\s+)+")  # anchors (&base) and tags (!!str) before a value
_BLOCK = re.compile(r"^[|>][-+0-9]*$")
_MAX_DEPTH = 100  # deeper flow nesting is not configuration; the rest of that collection is skipped


@dataclass(frozen=True)
class Entry:
    """A key (value None: its value is nested below) or a scalar (a key's value or a sequence item)."""

    path: tuple[str, ...]  # mapping keys from the root; "-" for each sequence item on the way
    value: str | None  # the scalar, unquoted (block scalars: their text); None for a key with nested content
    line: int  # 1-based, of the value (of the key when value is None)
    col: int  # 1-based start of the value (of the key when value is None)
    end_col: int  # 1-based, exclusive
    item: int = 0  # line of the nearest enclosing sequence item ("-"), 0 outside sequences
    key_line: int = 0  # line of the key the value belongs to
    in_list: bool = False  # one item of a sequence (flow or block)
    # The command line a flag belongs to (flags of shell launch commands, numbered from 1; 0 in a config file):
    # `with-setting` looks at the flags of the same command only.
    command: int = 0

    @property
    def keys(self) -> tuple[str, ...]:
        """The key path without sequence markers."""
        return tuple(k for k in self.path if k != "-")

    @property
    def key(self) -> str:
        k = self.keys
        return k[-1] if k else ""


def _unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        body = s[1:-1]
        return body.replace("''", "'") if s[0] == "'" else body.replace('\\"', '"')
    return s


def _strip_comment(text: str) -> str:
    """Cut a ` #` comment outside quotes (a `#` inside a plain scalar such as `a#b` is kept)."""
    if "#" not in text:
        return text.rstrip()
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'" and (i == 0 or text[i - 1] in " \t[{,:"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def _balance(text: str) -> int:
    """Open minus closed brackets outside quotes."""
    depth, quote = 0, ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


class _Flow:
    """Recursive descent over one flow collection; `pos[i]` is the (line, column) of text[i]."""

    def __init__(self, text: str, pos: list, out: list, item: int):
        self.t, self.pos, self.out, self.item, self.i = text, pos, out, item, 0

    def ws(self):
        t = self.t
        while self.i < len(t) and t[self.i] in " \t\r\n,":
            self.i += 1

    def scalar(self, stop: str):
        t, start = self.t, self.i
        if start < len(t) and t[start] in "\"'":
            q = t[start]
            j = start + 1
            while j < len(t) and not (t[j] == q and (q == "'" or t[j - 1] != "\\")):
                j += 1
            self.i = min(j + 1, len(t))
        else:
            j = start
            while j < len(t) and t[j] not in stop and not (t[j] == ":" and (j + 1 >= len(t) or t[j + 1] in " \t\r\n")):
                j += 1
            while j > start and t[j - 1] in " \t\r\n":
                j -= 1
            self.i = j
        return start, self.i

    def emit(self, path, start, end, key_line, in_list):
        raw = self.t[start:end]
        if not raw.strip() and not in_list:
            return
        line, col = self.pos[start] if start < len(self.pos) else self.pos[-1]
        end_line, end_col = self.pos[end - 1] if 0 < end <= len(self.pos) else (line, col)
        self.out.append(Entry(tuple(path), _unquote(raw.strip()), line, col,
                              end_col + 1 if end_line == line else col + len(raw), self.item,
                              key_line or line, in_list))

    def node(self, path: list, depth: int, key_line: int, in_list: bool):
        self.ws()
        if self.i >= len(self.t) or depth > _MAX_DEPTH:
            self.i = len(self.t)
            return
        ch = self.t[self.i]
        if ch == "{":
            self.i += 1
            self.mapping(path, depth + 1)
        elif ch == "[":
            self.i += 1
            self.sequence(path, depth + 1)
        else:
            s, e = self.scalar(",]}")
            self.emit(path, s, e, key_line, in_list)

    def mapping(self, path: list, depth: int):
        t = self.t
        while True:
            self.ws()
            if self.i >= len(t):
                return
            if t[self.i] == "}":
                self.i += 1
                return
            if t[self.i] in "]":
                self.i += 1
                continue
            s, e = self.scalar(",:}]")
            key = _unquote(t[s:e].strip())
            self.ws_inline()
            if self.i < len(t) and t[self.i] == ":":
                self.i += 1
                line, col = self.pos[s] if s < len(self.pos) else (0, 0)
                self.out.append(Entry(tuple(path + [key]), None, line, col, col + e - s, self.item, line))
                self.node(path + [key], depth, line, False)
            elif e == s and self.i < len(t) and t[self.i] not in ",}":
                self.i += 1  # a stray character: step over it (the outline never stops on bad input)

    def ws_inline(self):
        while self.i < len(self.t) and self.t[self.i] in " \t\r\n":
            self.i += 1

    def sequence(self, path: list, depth: int):
        t = self.t
        while True:
            self.ws()
            if self.i >= len(t):
                return
            if t[self.i] == "]":
                self.i += 1
                return
            if t[self.i] == "}":
                self.i += 1
                continue
            before = self.i
            self.node(path, depth, 0, True)
            if self.i == before:
                self.i += 1


def outline(text: str) -> list[Entry]:
    """Every key and scalar of a YAML (or JSON) text, in order."""
    out: list[Entry] = []
    lines = text.splitlines()
    stack: list[tuple[int, str, int]] = []  # (indent, key or "-", line)
    n = 0
    block: tuple | None = None  # (indent of the owning key, path, item, key line, first line, parts)
    while n < len(lines):
        raw = lines[n]
        n += 1
        stripped = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if block is not None:
            if not stripped or indent > block[0]:
                block[5].append((n, raw))
                continue
            _close_block(block, out)
            block = None
        if not stripped or stripped.startswith("#") or stripped in ("---", "...") or stripped.startswith("%"):
            continue
        body = _strip_comment(raw)
        col = indent  # 0-based column of what is read next
        # sequence dashes, possibly several on one line (`- - a`)
        while body[col:col + 1] == "-" and (col + 1 >= len(body) or body[col + 1] in " \t"):
            while stack and (stack[-1][0] > col or (stack[-1][0] == col and stack[-1][1] == "-")):
                stack.pop()
            stack.append((col, "-", n))
            col += 1
            while col < len(body) and body[col] in " \t":
                col += 1
        rest = body[col:]
        if not rest:
            continue
        item = next((ln for _, k, ln in reversed(stack) if k == "-"), 0)
        m = _KEY.match(rest)
        if m is None or rest.startswith(("[", "{")):
            # a scalar or flow collection that is a sequence item (or a stray line)
            path = [k for _, k, _ in stack]
            if not stack or stack[-1][1] == "-":
                n = _value(rest, col, n, lines, path, item, 0, out, in_list=bool(stack))
            continue
        key = _unquote(m.group("key").strip())
        while stack and stack[-1][0] >= col and not (stack[-1][1] == "-" and stack[-1][0] < col):
            stack.pop()
        item = next((ln for _, k, ln in reversed(stack) if k == "-"), 0)
        path = [k for _, k, _ in stack] + [key]
        value = rest[m.end():].lstrip()
        vcol = col + m.end() + (len(rest) - m.end() - len(rest[m.end():].lstrip()))
        prop = _PROPS.match(value)
        if prop:
            vcol += prop.end()
            value = value[prop.end():]
        if not value or value.startswith("*"):
            out.append(Entry(tuple(path), None, n, col + 1, col + 1 + len(m.group("key")), item, n))
            stack.append((col, key, n))
            continue
        if _BLOCK.match(value):
            out.append(Entry(tuple(path), None, n, col + 1, col + 1 + len(m.group("key")), item, n))
            block = (indent, tuple(path), item, n, n + 1, [])  # content is indented past the line's start
            continue
        out.append(Entry(tuple(path), None, n, col + 1, col + 1 + len(m.group("key")), item, n))
        n = _value(value, vcol, n, lines, path, item, n, out)
    if block is not None:
        _close_block(block, out)
    return out


def _value(value: str, vcol: int, n: int, lines: list[str], path: list, item: int, key_line: int,
           out: list, in_list: bool = False) -> int:
    """One value starting at line n (1-based), 0-based column vcol -> entries; returns the last line used."""
    if value.startswith(("[", "{")) and not value.startswith("{{"):
        text, pos = value, [(n, vcol + 1 + i) for i in range(len(value))]
        depth = _balance(value)
        while depth > 0 and n < len(lines):  # a flow collection over several lines (JSON documents)
            n += 1
            more = _strip_comment(lines[n - 1])
            lead = len(more) - len(more.lstrip())
            more = more.lstrip()
            text += "\n" + more
            pos.append((n - 1, len(lines[n - 2]) + 1))
            pos.extend((n, lead + 1 + i) for i in range(len(more)))
            depth += _balance(more)
        flow = _Flow(text, pos, out, item)
        flow.node(list(path), 0, key_line, in_list)
        return n
    out.append(Entry(tuple(path), _unquote(value), n, vcol + 1, vcol + 1 + len(value), item, key_line or n, in_list))
    return n


def _close_block(block: tuple, out: list) -> None:
    _, path, item, key_line, first, parts = block
    while parts and not parts[-1][1].strip():
        parts.pop()
    if not parts:
        return
    line, first_text = parts[0]
    col = len(first_text) - len(first_text.lstrip()) + 1
    out.append(Entry(path, "\n".join(p.strip() for _, p in parts), line, col, len(first_text) + 1, item, key_line))


def top_keys(entries: list[Entry]) -> set[str]:
    return {e.path[0] for e in entries if e.value is None and len(e.path) == 1}
