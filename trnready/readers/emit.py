"""What the non-Python readers share: the per-file Emitter and the dependency / Python-version matchers."""
from __future__ import annotations

import fnmatch
import re
from dataclasses import replace

from .. import requirements as rq
from ..model import Finding, Occurrences, make_finding


class Emitter:
    """Collects one file's findings from the non-Python readers."""

    def __init__(self, rel: str):
        self.rel = rel
        self.out: list[Finding] = []
        self.occurrences = Occurrences()
        self.seen: set = set()

    def add(self, rule, matcher, line: int, column: int, end_column: int, snippet: str, message: str,
            code: str, cell: int | None = None, rel: str | None = None, guarded_by: str = ""):
        rel = rel or self.rel
        # One finding per rule and line: `pip install torch==1.10+cu111 torchvision==0.11+cu111 -f .../cu111/...`
        # is one place to fix, not three.
        key = (rel, cell, rule.id, line)
        if key in self.seen:
            return
        self.seen.add(key)
        self.out.append(make_finding(
            rule, self.occurrences, confidence=matcher.confidence, path=rel, line=line, column=max(1, column),
            end_line=line, end_column=max(column, end_column), snippet=snippet, message=message, code=code,
            cell=cell, guarded=bool(guarded_by), guarded_by=guarded_by))


def msg(rule, matcher, name: str, **fields) -> str:
    if matcher.message:
        try:
            return matcher.message.format(name=name, **fields)
        except (KeyError, IndexError, ValueError):
            return matcher.message
    return f"{rule.title}: `{name}`"


def mentioned(matcher, text: str) -> bool:
    """`unless-mentioned` in this file (mentioned-in = "repo" is also checked repo-wide after the scan)."""
    return matcher.scope == "file" and any(s in text for s in matcher.unless_mentioned)


def _requirement_index(engine):
    """(exact name -> [(rule, matcher)], [(pattern, rule, matcher)] with wildcards), built once per engine:
    matching every dependency against every pattern cost ~10^4 fnmatch calls per dependency."""
    index = getattr(engine, "_requirement_index", None)
    if index is None:
        exact: dict = {}
        wild: list = []
        for rule, m in engine.requirements:
            for pat in m.names:
                norm = re.sub(r"[-_.]+", "-", pat.lower())
                if any(c in norm for c in "*?["):
                    wild.append((norm, rule, m))
                else:
                    exact.setdefault(norm, []).append((rule, m))
        index = engine._requirement_index = (exact, wild)
    return index


def _matching_requirement_rules(engine, name: str):
    """The (rule, matcher) pairs whose names match the dependency, in catalogue order."""
    exact, wild = _requirement_index(engine)
    found = {id(m) for _, m in exact.get(name, ())}
    found.update(id(m) for pat, _, m in wild if fnmatch.fnmatchcase(name, pat))
    return [(rule, m) for rule, m in engine.requirements if id(m) in found] if found else []


def own_distribution(engine, name: str) -> bool:
    """The dependency names the scanned project itself (`unsloth[triton]` in unsloth's own extras, `pip install -e
    .[dev]` spelled with the project's name): the project is not a dependency to port (predicate own-package)."""
    own: frozenset = getattr(getattr(engine, "project", None), "own_packages", frozenset())
    return bool(own) and name.replace("-", "_") in own


def platform_extra(engine, extra: str) -> bool:
    """An optional-dependency group named for another platform or a CUDA build (`cu121-torch240`,
    `colab-ampere`, `rocm57`, `intelgpu`, `gpu`): an install recipe a Trainium install never selects.
    Words from [context.values] platform-extra-words and other-accelerator-words: a word of the name that is one
    of them, or begins with one of four or more letters (`intelgputorch291`)."""
    if not extra:
        return False
    words = getattr(engine, "_platform_extra_words", None)
    if words is None:  # built once per engine, like the requirement index
        values = getattr(getattr(engine, "catalogue", None), "context_values", {})
        words = frozenset(values.get("platform-extra-words", ())) | frozenset(values.get("other-accelerator-words", ()))
        engine._platform_extra_words = words
    for token in re.findall(r"[a-z]+", extra.lower()):
        if token in words or any(len(w) >= 4 and token.startswith(w) for w in words):
            return True
    return False


def emit_deps(deps, lines: list[str], engine, em: Emitter, mention_text: str, cell=None, rel=None):
    family: dict = {}  # (rule, message, extra, standing) -> index in em.out of a fixed-message matcher's finding
    for d in deps:
        if own_distribution(engine, d.name):
            continue
        guard = None  # decided at the first rule that matches the dependency
        for rule, m in _matching_requirement_rules(engine, d.name):
            if m.version is not None and not (d.alternatives and all(rq.ceiling_in(s, m.version)
                                                                     for s in d.alternatives)):
                continue
            if m.version_shape is not None and not any(m.version_shape.search(v) for v in d.versions):
                continue
            if m.unless_mentioned and mentioned(m, mention_text):
                continue
            snippet = lines[d.line - 1] if 0 < d.line <= len(lines) else d.raw
            if guard is None:
                # an extra named for another platform, or a setup.py helper's arm taken only on one
                # (`elif platform == "rocm": return ["triton>=3.0.0"]`): every string its test compares with names one
                guard = "platform-extra" if platform_extra(engine, d.extra) or (
                    d.platform and all(platform_extra(engine, w) for w in d.platform.split())) else ""
            text = msg(rule, m, d.raw)
            if m.message and "{name}" not in m.message:
                # a matcher whose message names no package describes a family of them (the nvidia-*-cu12 runtime
                # wheels of a CUDA torch, eleven lines of a pip freeze): one finding per manifest and extra, the
                # family's other lines its occurrences
                key = (rule.id, text, d.extra, guard, cell, rel)
                at = family.get(key)
                if at is not None:
                    head = em.out[at]
                    if head.line == d.line:
                        continue  # (one finding per rule and line, as Emitter.add keeps it)
                    em.out[at] = replace(head, occurrences=tuple(dict.fromkeys(
                        (*head.occurrences, (d.line, d.column, rule.id)))))
                    continue
            line, col, end = d.line, d.column, d.end_column
            if d.version_at and (m.version is not None or m.version_shape is not None):
                line, col, end = d.version_at
                snippet = lines[line - 1] if 0 < line <= len(lines) else d.raw
            n = len(em.out)
            em.add(rule, m, line, col, end, snippet, text, d.raw, cell=cell, rel=rel,
                   guarded_by=guard)
            if d.version_at and line == d.line and len(em.out) > n:
                # the ARG setting the version is a place of the package's finding (a pin to change with it)
                em.out[n] = replace(em.out[n], occurrences=(*em.out[n].occurrences, (d.version_at[0], d.version_at[1],
                                                                                     rule.id)))
            if len(em.out) > n and m.message and "{name}" not in m.message:
                family.setdefault((rule.id, text, d.extra, guard, cell, rel), n)


def emit_pyreqs(pyreqs, lines: list[str], engine, em: Emitter, mention_text: str, cell=None, role="requirement",
                fold_same: bool = False):
    """The `python` matchers of `role` against Python requirements: declared ones, or (role "ci") the
    versions a CI test job runs on. `fold_same`: one finding per requirement text and rule in the file, its
    later lines folded in as occurrences (`python3.5 run.py ...` on every command of one launcher is one
    interpreter to change, not one per command)."""
    from dataclasses import replace

    first: dict = {}
    for r in pyreqs:
        before = len(em.out)
        _emit_pyreq(r, lines, engine, em, mention_text, cell, role)
        if not fold_same or len(em.out) == before:
            continue
        kept: list = []
        for f in em.out[before:]:
            k = (f.rule, f.cell, r.raw.strip())
            if k in first:
                head = em.out[first[k]]
                em.out[first[k]] = replace(head, occurrences=(*head.occurrences, (f.line, f.column, f.rule)))
            else:
                first[k] = before + len(kept)
                kept.append(f)
        em.out[before:] = kept


def _emit_pyreq(r, lines: list[str], engine, em: Emitter, mention_text: str, cell, role: str):
    for rule, m in engine.surface.get("python", ()):
        if (m.role if m.role in ("requirement", "ci") else "requirement") != role:
            continue
        if m.unless_mentioned and mentioned(m, mention_text):
            continue
        if rq.python_excludes_all(r, m.names):
            snippet = lines[r.line - 1] if 0 < r.line <= len(lines) else r.raw
            em.add(rule, m, r.line, r.column, r.end_column, snippet,
                   msg(rule, m, r.raw.strip(), versions=", ".join(m.names)), r.raw, cell=cell)


def uncommented(text: str) -> str:
    return "\n".join(rq.strip_comment(ln) for ln in text.splitlines())
