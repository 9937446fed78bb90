"""Dependency manifests: requirements/constraints files (with their -r/-c includes), pyproject.toml,
Pipfile, setup.cfg, setup.py (from the syntax tree), conda environments and .python-version."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import requirements as rq
from ..filekinds import comments, kind_in
from ..model import Diagnostic
from .context import FileContext, ReadResult, Source
from .emit import Emitter, emit_deps, emit_pyreqs, uncommented
from .lines import emit_lines

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def read(ctx: FileContext) -> ReadResult:
    kind, text, rel = ctx.kind, ctx.text, ctx.rel
    em = Emitter(rel)
    lines = text.splitlines()
    mention = uncommented(text)
    sources = [Source(text, comments(kind))]
    if kind == "requirements":
        return _read_requirements(ctx, em, lines, mention, sources)
    if kind in ("pyproject", "pipfile"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            return ReadResult([], Diagnostic(rel, "syntax-error", f"invalid TOML: {e}"), [])
        man = rq.parse_pyproject(data, text) if kind == "pyproject" else rq.parse_pipfile(data, text)
    elif kind == "setup-cfg":
        man = rq.parse_setup_cfg(text)
    elif kind == "python-version":
        man = rq.parse_python_version_file(text)
    elif kind == "conda":
        man = rq.parse_conda(text)
    else:
        return ReadResult()
    emit_deps(man.deps, lines, ctx.engine, em, mention)
    emit_pyreqs(man.pyreqs, lines, ctx.engine, em, mention)
    emit_lines(kind, lines, ctx.engine, em, mention)
    return ReadResult(em.out, None, sources)


def _read_requirements(ctx: FileContext, em: Emitter, lines, mention: str, sources) -> ReadResult:
    text, rel, path, engine = ctx.text, ctx.rel, ctx.path, ctx.engine
    deps, _ = rq.parse_requirements(text)
    extra, nested, missing = _requirements_context(path, rel, text)
    emit_deps(deps, lines, engine, em, mention + "\n" + extra)
    emit_lines("requirements", lines, engine, em, mention)
    for q, body in nested:
        sub_rel = _rel_of(rel, path, q)
        sub_deps, _ = rq.parse_requirements(body)
        emit_deps(sub_deps, body.splitlines(), engine, em, mention + "\n" + extra, rel=sub_rel)
    diag = None
    if missing:  # pip would stop here; the dependencies of the missing file were not checked
        where = "; ".join(f"{src}:{line}: {opt} {target}" for src, line, opt, target in missing[:5])
        diag = Diagnostic(rel, "missing-include",
                          f"included requirements file not found ({where}); its dependencies were not checked")
    return ReadResult(em.out, diag, sources)


# ---------------------------------------------------------------- requirements includes

def _requirements_context(path: Path | None, rel: str, text: str):
    """Text of the files this requirements file includes (-r/-c, transitively) and of sibling
    requirements files that include it: pip applies index options from all of them."""
    if path is None:
        return "", [], []

    extra, nested, missing = [], [], []
    seen = {path.resolve()}

    def walk(p: Path, t: str, depth: int):
        _, includes = rq.parse_requirements(t)
        for line, opt, target in includes:
            if "://" in target or "$" in target:
                continue  # a URL or a path built from a variable: nothing to look up
            q = (p.parent / target)
            try:
                rp = q.resolve()
                if rp in seen or depth > 5:
                    continue
                if not q.is_file():
                    missing.append((_rel_of(rel, path, p) if p != path else rel, line, opt, target))
                    continue
                seen.add(rp)
                body = q.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            extra.append(uncommented(body))
            if kind_in(q.parent.name, q.name) != "requirements":
                # not discovered on its own: scan it together with the file that includes it
                nested.append((q, body))
            walk(q, body, depth + 1)

    walk(path, text, 0)
    try:
        for sib in sorted(path.parent.iterdir()):
            if sib == path or not sib.is_file() or \
                    kind_in(sib.parent.name, sib.name) != "requirements":
                continue
            body = sib.read_text(encoding="utf-8", errors="replace")
            if any(Path(t).name == path.name for _, _, t in rq.parse_requirements(body)[1]):
                extra.append(uncommented(body))
    except OSError:
        pass
    return "\n".join(extra), nested, missing


def _rel_of(base_rel: str, base_path: Path, other: Path) -> str:
    rel = os.path.normpath(os.path.join(os.path.dirname(base_rel), os.path.relpath(other, base_path.parent)))
    return Path(rel).as_posix()
