"""Apptainer / Singularity definition files, read as the Dockerfile they are equivalent to.

A definition file starts with a header (`Bootstrap: docker`, `From: nvcr.io/nvidia/pytorch:24.02-py3`) and
continues with `%sections`. The header's `From:` names the base image exactly as a Dockerfile's `FROM` does,
and the shell sections (`%post`, `%environment`, `%runscript`, `%startscript`, `%test`) run like `RUN` steps.
Each line is rewritten in place to that Dockerfile form and handed to the Dockerfile reader, so one set of
rules and one ARG/ENV expansion serve both; findings are then moved back to the columns of the original
line. A `*.def` file without a `Bootstrap:` header (a Windows module-definition file, a data file) is not a
definition file and gives nothing.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..filekinds import comments
from . import docker
from .context import FileContext, ReadResult, Source

_HEADER = re.compile(r"^(?P<key>[A-Za-z]+)\s*:(?P<value>.*)$")
_SECTION = re.compile(r"^%(?P<name>\w+)")
# Sections whose body is shell run in the image (build time or run time); %setup runs on the host, %files,
# %labels and %help are data.
_SHELL_SECTIONS = frozenset({"post", "environment", "runscript", "startscript", "test"})
_MAX_HEADER_SCAN = 50  # the Bootstrap: line comes first, after comments and blank lines


def is_definition(lines: list[str]) -> bool:
    for ln in lines[:_MAX_HEADER_SCAN]:
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        m = _HEADER.match(s)
        return m is not None and m.group("key").lower() == "bootstrap"
    return False


def as_dockerfile(lines: list[str]) -> tuple[list[str], list[int]]:
    """(the lines in Dockerfile form, per line the number of characters added before the original text)."""
    out: list[str] = []
    shifts: list[int] = []
    section = None
    continued = False
    for ln in lines:
        header = _HEADER.match(ln)
        sec = _SECTION.match(ln)
        if header and header.group("key").lower() == "bootstrap":
            section = None  # a new stage starts with its own header
        if sec:
            section = sec.group("name").lower()
            out.append("")
            shifts.append(0)
            continued = False
            continue
        if section is None:
            if header and header.group("key").lower() == "from":
                # `From:` becomes `FROM ` padded to the same length: the columns stay as they are
                colon = ln.index(":", header.end("key"))
                out.append("FROM".ljust(colon + 1) + ln[colon + 1:])
            else:
                out.append("")
            shifts.append(0)
        elif section in _SHELL_SECTIONS and ln.strip() and not ln.lstrip().startswith("#"):
            if continued:  # a `\` continuation belongs to the step above
                out.append(ln)
                shifts.append(0)
            else:
                body = ln.lstrip()
                out.append("RUN " + body)
                shifts.append(4 - (len(ln) - len(body)))
            continued = ln.rstrip().endswith("\\")
        else:
            out.append(ln if section in _SHELL_SECTIONS else "")
            shifts.append(0)
    return out, shifts


def read(ctx: FileContext) -> ReadResult:
    lines = ctx.text.splitlines()
    if not is_definition(lines):
        return ReadResult()
    converted, shifts = as_dockerfile(lines)
    inner = FileContext("\n".join(converted), ctx.rel, "dockerfile", ctx.engine, ctx.path, ctx.prefilter,
                        ctx.read_as)
    result = docker.read(inner)
    found = []
    for f in result.findings:
        if not 0 < f.line <= len(lines):
            continue
        shift = shifts[f.line - 1]
        original = lines[f.line - 1]
        # the message quotes the matched text: quoted as written in the definition file
        message = f.message.replace(f"`{converted[f.line - 1].strip()}`", f"`{original.strip()}`")
        found.append(replace(f, snippet=original, message=message, column=max(1, f.column - shift),
                             end_column=max(1, f.end_column - shift)))
    return ReadResult(found, result.diag, [Source(ctx.text, comments(ctx.kind))])
