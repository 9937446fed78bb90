"""Where a notebook cell's source lines sit in the .ipynb file itself.

Findings in notebooks carry `cell` and a line relative to that cell, which is what
a person reads. Machines that annotate the file on disk (SARIF viewers, GitHub
annotations) need the line in the JSON text instead. The standard `json` module
keeps no positions, so this module walks the JSON tokens once and records the
physical line of every string in `cells[i].source`.
"""
from __future__ import annotations

import json
import re

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+|\s+', re.S)


class _Walker:
    def __init__(self, text: str):
        self.tokens: list[tuple[str, int]] = []
        line = 1
        for m in _TOKEN.finditer(text):
            tok = m.group()
            if not tok.isspace():
                self.tokens.append((tok, line))
            line += tok.count("\n")
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else ""

    def take(self) -> tuple[str, int]:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def value(self, path: tuple, out: dict) -> None:
        tok, line = self.take()
        if tok == "{":
            while self.peek() not in ("}", ""):
                key = json.loads(self.take()[0])
                self.take()  # ':'
                self.value(path + (key,), out)
                if self.peek() == ",":
                    self.take()
            self.take()
        elif tok == "[":
            n = 0
            while self.peek() not in ("]", ""):
                self.value(path + (n,), out)
                n += 1
                if self.peek() == ",":
                    self.take()
            self.take()
        elif tok.startswith('"') and len(path) >= 3 and path[0] == "cells" and path[2] == "source":
            out.setdefault(path[1], []).append((line, json.loads(tok)))


def source_lines(text: str) -> dict[int, list[int]]:
    """cell index -> physical line (1-based, in the .ipynb text) of each line of that cell's source."""
    strings: dict = {}
    try:
        _Walker(text).value((), strings)
    except (IndexError, ValueError):
        return {}
    result: dict[int, list[int]] = {}
    for cell, parts in strings.items():
        lines: list[int] = []
        for physical, chunk in parts:
            # A list element normally holds one line ("x = 1\n"); a string source holds them all.
            pieces = chunk.split("\n")
            count = len(pieces) - (1 if chunk.endswith("\n") else 0)
            lines.extend([physical] * max(count, 1 if chunk else 0))
        result[cell] = lines
    return result


def file_line(mapping: dict[int, list[int]], cell: int, line: int) -> int | None:
    lines = mapping.get(cell)
    if not lines:
        return None
    return lines[min(max(line, 1), len(lines)) - 1]
