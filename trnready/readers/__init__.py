"""Readers: one module per family of file kinds, each turning one file's text into raw findings.

    python      Python sources (parse once, index once, match once); setup.py's manifest part too
    notebook    .ipynb: cell splitting and IPython magic masking (also used by `trnready fix`)
    manifests   requirements/constraints, pyproject.toml, setup.cfg, setup.py, Pipfile, conda, .python-version
    lines       line-oriented kinds: shell, Dockerfile, YAML, .env, Terraform, JSON job definitions
    cuda        .cu / .cuh sources
    apptainer   Apptainer / Singularity definition files, rewritten line by line into Dockerfile form
    emit        the helpers the non-Python readers share (dependency and line matchers)

A reader takes a FileContext and returns a ReadResult: the findings, a diagnostic or None, and the
stretches of text whose comments may hold suppressions. Suppressions, per-file ignores, de-duplication
and sorting happen afterwards, once, in trnready/postprocess.py. The kind -> reader table is
trnready/filekinds.py.
"""
from __future__ import annotations

from dataclasses import replace
from importlib import import_module

from ..filekinds import BY_KIND
from ..model import Diagnostic
from .context import FileContext, ReadResult, Source, decode_text  # noqa: F401  (the readers' interface)


# Lines of non-Python files are read up to this many characters. Real manifests, Dockerfiles and
# workflows stay far below; minified JSON or a generated 100 kB line is data, and several readers
# (regexes over shell commands, line rules) cost more than linear time in a line's length.
LINE_CAP = 10_000


def cap_lines(text: str, rel: str):
    """(text with every line cut to LINE_CAP characters, a long-line diagnostic or None)."""
    if len(text) <= LINE_CAP or not any(len(ln) > LINE_CAP for ln in text.split("\n")):
        return text, None
    lines = text.split("\n")
    long = [n for n, ln in enumerate(lines, 1) if len(ln) > LINE_CAP]
    text = "\n".join(ln[:LINE_CAP] for ln in lines)
    where = ", ".join(map(str, long[:5])) + (f" and {len(long) - 5} more" if len(long) > 5 else "")
    return text, Diagnostic(rel, "long-line", f"line{'s' if len(long) > 1 else ''} {where} longer than "
                                              f"{LINE_CAP:,} characters: only the first {LINE_CAP:,} were read")


def read(ctx: FileContext) -> ReadResult:
    """The reader of ctx.kind -> its result."""
    spec = BY_KIND.get(ctx.kind)
    if spec is None:
        return ReadResult()
    if ctx.read_as is None:
        ctx.read_as = read  # notebooks hand `%%writefile requirements.txt` cells back to the reader of that kind
    cap_diag = None
    if ctx.kind not in ("python", "notebook"):  # JSON text / Python: their own readers see the structure
        ctx.text, cap_diag = cap_lines(ctx.text, ctx.rel)
    result = import_module(f"{__name__}.{spec.reader}").read(ctx)
    if cap_diag is not None:
        result.diag = cap_diag if result.diag is None else replace(
            result.diag, message=f"{result.diag.message}; {cap_diag.message}")
    return result
