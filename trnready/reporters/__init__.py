"""One module per output format; each exposes render(report, stream, **options)."""
from __future__ import annotations

from importlib import import_module

FORMATS = ("text", "concise", "json", "html", "sarif", "github", "junit", "markdown")


def get(fmt: str):
    if fmt not in FORMATS:
        raise KeyError(fmt)
    return import_module(f"{__name__}.{fmt}")
