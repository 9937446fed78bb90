"""Dependency manifests: requirements/constraints files (with their -r/-c includes), pyproject.toml,
Pipfile, setup.cfg, setup.py (from the syntax tree), conda environments, pixi.toml and .python-version."""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import replace
from pathlib import Path

from .. import requirements as rq
from ..filekinds import comments, kind_in
from ..model import Diagnostic
from ..read import DEFAULT_MAX_BYTES, read_regular
from ..scope import classify
from .context import FileContext, ReadResult, Source
from .emit import Emitter, emit_deps, emit_pyreqs, platform_extra, uncommented
from .lines import emit_lines

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def read(ctx: FileContext) -> ReadResult:
    got = _read(ctx)
    if got.findings and ctx.kind in ("requirements", "conda") and classify(ctx.rel) == "docs":
        # `docs/requirements.txt` pins what the documentation build installs (Sphinx, often a CPU torch wheel to
        # import the package for autodoc): not the environment the model trains or serves in
        got.findings = [f if f.guarded else replace(f, guarded=True, guarded_by="docs-build") for f in got.findings]
    return got


def _read(ctx: FileContext) -> ReadResult:
    kind, text, rel = ctx.kind, ctx.text, ctx.rel
    em = Emitter(rel)
    lines = text.splitlines()
    mention = uncommented(text)
    sources = [Source(text, comments(kind))]
    if kind == "requirements" and rq.is_conda_list(text):
        man = rq.parse_conda_list(text)  # `conda list --export` saved as requirements.txt: conda specs, no includes
    elif kind == "requirements":
        return _read_requirements(ctx, em, lines, mention, sources)
    elif kind in ("pyproject", "pipfile", "pixi"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            return ReadResult([], Diagnostic(rel, "syntax-error", f"invalid TOML: {e}"), [])
        man = rq.TOML_PARSERS[kind](data, text)
    elif kind in rq.TEXT_PARSERS:
        man = rq.TEXT_PARSERS[kind](text)
    else:
        return ReadResult()
    emit_deps(man.deps, lines, ctx.engine, em, mention)
    emit_pyreqs(man.pyreqs, lines, ctx.engine, em, mention)
    emit_lines(kind, lines, ctx.engine, em, mention)
    spans = rq.extra_spans(data, text) if kind == "pyproject" else []
    found = _guard_platform_extras(em.out, man.deps, spans, ctx.engine)
    return ReadResult(one_per_pin(found, man.deps), None, sources)


def one_per_pin(findings: list, deps: list) -> list:
    """One finding per pin: a main requirement written again in an extra (`torch==2.8.0` in `dependencies` and in
    the `stable` extra) is one thing to change, so the extra's repeat (same rule, same text, same standing) is an
    occurrence of the main requirement's finding. Repeats across extras alone stay apart: each extra is a choice
    of its own (a `flashattention` feature and a `gpu` extra)."""
    extra_of = {d.line: d.extra for d in deps}
    main: dict = {}  # (rule, message, standing) -> index of the main requirement's finding
    for i, f in enumerate(findings):
        if f.line in extra_of and not extra_of[f.line]:
            main.setdefault((f.rule, f.message, f.guarded, f.suppressed), i)
    out = list(findings)
    drop: set = set()
    for i, f in enumerate(findings):
        k = main.get((f.rule, f.message, f.guarded, f.suppressed))
        if k is None or k == i or not extra_of.get(f.line):
            continue
        head = out[k]
        out[k] = replace(head, occurrences=tuple(dict.fromkeys((*head.occurrences, (f.line, f.column, f.rule)))))
        drop.add(i)
    return [f for i, f in enumerate(out) if i not in drop]


def _guard_platform_extras(findings: list, deps: list, spans: list, engine) -> list:
    """Line rules (a CUDA wheel index in `xformers @ https://download.pytorch.org/whl/cu121/...`) inside an extra
    named for another platform are guarded like that extra's requirements."""
    lines = {d.line for d in deps if platform_extra(engine, d.extra)}
    for extra, first, last in spans:
        if platform_extra(engine, extra):
            lines.update(range(first, last + 1))
    if not lines:
        return findings
    from dataclasses import replace
    return [replace(f, guarded=True, guarded_by="platform-extra") if f.line in lines and not f.guarded else f
            for f in findings]


def _read_requirements(ctx: FileContext, em: Emitter, lines, mention: str, sources) -> ReadResult:
    text, rel, path, engine = ctx.text, ctx.rel, ctx.path, ctx.engine
    deps, _ = rq.parse_requirements(text)
    extra, nested, problems = _requirements_context(path, rel, text)
    emit_deps(deps, lines, engine, em, mention + "\n" + extra)
    # `python == 3.8.5` in a requirements file (a conda `--file` list, or the interpreter the project was run on,
    # written beside its packages: Simple-CV-Pytorch-master, blind81): the Python the project asks for
    emit_pyreqs([rq.PyReq(raw=d.raw, alternatives=d.alternatives, line=d.line, column=d.column,
                          end_column=d.end_column) for d in deps if d.name == "python" and d.alternatives],
                lines, engine, em, mention)
    emit_lines("requirements", lines, engine, em, mention)
    for q, body in nested:
        sub_rel = _rel_of(rel, path, q)
        sub_deps, _ = rq.parse_requirements(body)
        emit_deps(sub_deps, body.splitlines(), engine, em, mention + "\n" + extra, rel=sub_rel)
    diag = None
    if problems:  # pip would stop here; the dependencies of those files were not checked
        where = "; ".join(f"{src}:{line}: {opt} {target}: {why}" for _, src, line, opt, target, why in problems[:5])
        refused = any(p[0] == "refused" for p in problems)
        diag = Diagnostic(rel, "refused-include" if refused else "missing-include",
                          f"included requirements file{'s' if len(problems) > 1 else ''} not read ({where}); "
                          f"{'their' if len(problems) > 1 else 'its'} dependencies were not checked")
    return ReadResult(em.out, diag, sources)


# ---------------------------------------------------------------- requirements includes

# The size limit of included requirements files: --max-file-size, set by api.scan for the run
# (forked workers inherit it).
INCLUDE_MAX_BYTES = DEFAULT_MAX_BYTES


def _scan_root(path: Path, rel: str) -> Path | None:
    """The directory the scan started from: `path` with `rel`'s components taken off."""
    depth = len(Path(rel).parts)
    parents = path.absolute().parents
    return parents[depth - 1] if 0 < depth <= len(parents) else None


def _requirements_context(path: Path | None, rel: str, text: str, inputs: list | None = None):
    """Text of the files this requirements file includes (-r/-c, transitively) and of sibling
    requirements files that include it: pip applies index options from all of them.

    Includes are read only inside the scanned tree (a repository must not make trnready read, or
    reveal the existence of, ../outside.pip or /root/.ssh/id_rsa), only when regular files within
    --max-file-size. Every other file read or looked for is appended to `inputs` as (path, text or
    None when missing): the result depends on them, so they are part of its cache key."""
    if path is None:
        return "", [], []

    extra, nested, problems = [], [], []
    seen = {path.resolve()}
    record = inputs.append if inputs is not None else (lambda item: None)
    root = _scan_root(path, rel)
    root_real = root.resolve() if root is not None else None

    def inside(rp: Path) -> bool:
        return root_real is not None and (rp == root_real or root_real in rp.parents)

    def read_text(q: Path) -> str:
        return read_regular(q, INCLUDE_MAX_BYTES).decode("utf-8", errors="replace")

    def walk(p: Path, t: str, depth: int):
        _, includes = rq.parse_requirements(t)
        for line, opt, target in includes:
            if "://" in target or "$" in target:
                continue  # a URL or a path built from a variable: nothing to look up
            q = (p.parent / target)
            src = _rel_of(rel, path, p) if p != path else rel
            try:
                rp = q.resolve()
                if rp in seen or depth > 5:
                    continue
                if not inside(rp):
                    problems.append(("refused", src, line, opt, target, "outside the scanned directory; not read"))
                    continue
                if not q.exists():
                    record((str(rp), None))
                    problems.append(("missing", src, line, opt, target, "not found"))
                    continue
                seen.add(rp)
                body = read_text(q)
            except OSError as e:
                problems.append(("refused", src, line, opt, target, f"not read: {e.strerror or e}"))
                continue
            record((str(rp), body))
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
            try:
                if not inside(sib.resolve()):
                    continue
                body = read_text(sib)
            except OSError:
                continue
            record((str(sib), body))
            if any(Path(t).name == path.name for _, _, t in rq.parse_requirements(body)[1]):
                extra.append(uncommented(body))
    except OSError:
        pass
    return "\n".join(extra), nested, problems


def inputs_digest(text: str, rel: str, kind: str, path: Path | None) -> str:
    """A hash of the other files one file's result depends on ("" when it depends on none).

    Only requirements files read others (-r/-c includes, siblings that include them)."""
    if kind != "requirements" or path is None:
        return ""
    inputs: list = []
    _requirements_context(path, rel, text, inputs)
    h = hashlib.sha256()
    for name, body in inputs:
        h.update(name.encode("utf-8", "surrogatepass") + b"\0")
        h.update(b"-" if body is None else hashlib.sha256(body.encode("utf-8", "surrogatepass")).digest())
    return h.hexdigest()


def _rel_of(base_rel: str, base_path: Path, other: Path) -> str:
    rel = os.path.normpath(os.path.join(os.path.dirname(base_rel), os.path.relpath(other, base_path.parent)))
    return Path(rel).as_posix()
