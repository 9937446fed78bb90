"""Cutting a long line to a window around a match (snippets, context lines, fingerprinted code)."""
from __future__ import annotations

SNIPPET_WINDOW = 100  # characters kept on each side of the match
SNIPPET_MAX = 300


def clip(text: str, start: int = 0, end: int | None = None) -> str:
    """`text` cut to a window around [start, end) (0-based), with "…" where it was cut."""
    if len(text) <= SNIPPET_MAX:
        return text
    end = start if end is None or end < start else end
    a = max(0, min(start, len(text)) - SNIPPET_WINDOW)
    b = min(len(text), max(end, start + 1) + SNIPPET_WINDOW, a + SNIPPET_MAX)
    return ("…" if a > 0 else "") + text[a:b] + ("…" if b < len(text) else "")
