"""One line per finding (`path:line:col: RULE [severity] message`), then the summary: for big trees and grep."""
from __future__ import annotations

from .text import render as _render_text


def render(report, stream, **options) -> None:
    options["concise"] = True
    _render_text(report, stream, **options)
