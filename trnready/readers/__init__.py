"""Readers: one module per family of file kinds, each turning one file's text into raw findings.

    python      Python sources (parse once, index once, match once); setup.py's manifest part too
    notebook    .ipynb: cell splitting and IPython magic masking (also used by `trnready fix`)
    manifests   requirements/constraints, pyproject.toml, setup.cfg, setup.py, Pipfile, conda, .python-version
    lines       line-oriented kinds: shell, Dockerfile, YAML, .env, Terraform, JSON job definitions
    cuda        .cu / .cuh sources
    emit        the helpers the non-Python readers share (dependency and line matchers)

A reader takes a FileContext and returns a ReadResult: the findings, a diagnostic or None, and the
stretches of text whose comments may hold suppressions. Suppressions, per-file ignores, de-duplication
and sorting happen afterwards, once, in trnready/postprocess.py. The kind -> reader table is
trnready/filekinds.py.
"""
from __future__ import annotations

from importlib import import_module

from ..filekinds import BY_KIND
from .context import FileContext, ReadResult, Source, decode_text  # noqa: F401  (the readers' interface)


def read(ctx: FileContext) -> ReadResult:
    """The reader of ctx.kind -> its result."""
    spec = BY_KIND.get(ctx.kind)
    if spec is None:
        return ReadResult()
    if ctx.read_as is None:
        ctx.read_as = read  # notebooks hand `%%writefile requirements.txt` cells back to the reader of that kind
    return import_module(f"{__name__}.{spec.reader}").read(ctx)
