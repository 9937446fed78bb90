"""Report step uv-extras: a CUDA wheel index that uv uses only for an optional-dependency group (an extra) is an
opt-in, reported where the project selects that extra.

```toml
[tool.uv.sources]
torch = [{ index = "pytorch-cpu", extra = "cpu" }, { index = "pytorch-cu128", extra = "gpu" }]

[[tool.uv.index]]
name = "pytorch-cu128"
url = "https://download.pytorch.org/whl/cu128"     # TRN505 (line matcher)
explicit = true
```

An index marked `explicit = true` serves only the packages `[tool.uv.sources]` routes to it; when every such entry
names an `extra` (or a dependency `group`), the CUDA build comes in only with `uv sync --extra gpu`. So:

- an index's finding lists the source entries routing packages to it as its occurrences (the lines to edit),
  whether it is an opt-in or not;
- a command of the project installing one of those extras (`uv sync --extra gpu` in a script, Dockerfile or CI
  step, also `${UV_EXTRA}` with a literal value assigned in the same file; `pip install -e ".[gpu]"`), found by the
  catalogue's line matcher, stays a finding, its message naming the index; a command installing extras that take
  nothing from a CUDA index (`--extra dev`, `.[cpu]`), or with no such pyproject.toml found, is dropped;
- an opt-in index that no command of the project selects is guarded (`guarded_by` "opt-in-extra"): nothing on a
  Trainium host installs from it (fish-speech's cu126 / cu128 extras beside a cpu one).

The pyproject.toml is the one in the command's folder (the script's, after its literal `cd`s), else at the
repository root.
"""
from __future__ import annotations

import posixpath
import re
import sys
from dataclasses import replace
from pathlib import Path, PurePosixPath

from ..read import read_bytes
from .build_commands import _folder

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_BYTES = 1024 * 1024
_RULE_CATEGORY = "environment"
_UV_SYNC = re.compile(r"\buv\s+sync\b")
_EXTRA = re.compile(r"--extra(?:=|\s+)[\"']?([\w.${}:-]+)")
_PIP_EXTRAS = re.compile(r"\.\[([^\]]+)\]")
_VAR = re.compile(r"^\$\{?(\w+)(?::?-([\w.-]+))?\}?$")


def _selection(f) -> bool:
    """A finding of the extras-selection line matcher (what it reports installs extras of the project)."""
    shown = f.snippet[max(f.column - 1, 0):max(f.end_column - 1, 0)]
    return f.category == _RULE_CATEGORY and (
        bool(_UV_SYNC.search(shown)) or bool(re.search(r"install\s", shown) and _PIP_EXTRAS.search(shown)))


def _assigned(lines: list, name: str) -> list:
    """The literal values a file assigns to a variable (`ARG UV_EXTRA=cu129`, `ENV UV_EXTRA=cpu`, `UV_EXTRA=gpu`)."""
    pat = re.compile(r"^\s*(?:ARG\s+|ENV\s+|export\s+)?%s[= ]\s*[\"']?([\w.-]+)" % re.escape(name))
    return [m.group(1) for ln in lines for m in [pat.match(ln)] if m]


def _extras(shown: str, lines: list) -> set | None:
    """The extras a command installs (None: every one, `--all-extras`)."""
    if "--all-extras" in shown:
        return None
    names = _EXTRA.findall(shown) if _UV_SYNC.search(shown) else [
        x.strip().strip("\"'") for m in _PIP_EXTRAS.finditer(shown) for x in m.group(1).split(",")]
    out: set = set()
    for n in names:
        v = _VAR.match(n)
        if v:
            out.update(_assigned(lines, v.group(1)) + ([v.group(2)] if v.group(2) else []))
        else:
            out.add(n)
    return out


class _Indexes:
    """The indexes of one pyproject.toml: url line -> (the extras it serves when it is an opt-in, else nothing;
    the lines of the source entries routing packages to it; its url)."""

    def __init__(self, text: str):
        self.by_line: dict = {}
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError):
            return
        tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
        lines = text.splitlines()
        self._poetry(tool.get("poetry"), lines)
        uv = tool.get("uv", {})
        indexes = uv.get("index") if isinstance(uv, dict) else None
        sources = uv.get("sources") if isinstance(uv, dict) else None
        if not isinstance(indexes, list) or not isinstance(sources, dict):
            return
        for ix in indexes:
            if not isinstance(ix, dict) or not isinstance(ix.get("name"), str) or not isinstance(ix.get("url"), str):
                continue
            entries = [e for spec in sources.values() for e in (spec if isinstance(spec, list) else [spec])
                       if isinstance(e, dict) and e.get("index") == ix["name"]]
            # an opt-in: explicit, and every source entry routing a package to it names an extra or a group
            opt_in = ix.get("explicit") is True and bool(entries) and all(
                isinstance(e.get("extra") or e.get("group"), str) for e in entries)
            extras = {e.get("extra") or e.get("group") for e in entries} if opt_in else set()
            places, url_line = _routed(lines, "index", ix["name"], ix["url"])
            if url_line is not None:
                self.by_line[url_line] = (extras, places, ix["url"])

    def _poetry(self, poetry, lines: list) -> None:
        """Poetry's `[[tool.poetry.source]]` (a name and a url) and the dependencies routed to it (`torch = {source =
        "pytorch_cuda"}` in any dependency table): those lines install from the index, places of its finding
        (ESPCN_PYTORCH's cu126 source for torch, torchvision and torchaudio; blind80). Poetry's groups are no extras
        of an install command, so no source is an opt-in here."""
        sources = poetry.get("source") if isinstance(poetry, dict) else None
        if not isinstance(sources, list):
            return
        for src in sources:
            if not isinstance(src, dict) or not isinstance(src.get("name"), str) or not isinstance(src.get("url"), str):
                continue
            places, url_line = _routed(lines, r"\bsource", src["name"], src["url"])
            if url_line is not None and places:
                self.by_line[url_line] = (set(), places, src["url"])


def _routed(lines: list, key: str, name: str, url: str) -> tuple:
    """(the lines routing a package to the index `name` with `key = "name"` (`key` a regex), the line of its `url`, or
    None)."""
    rx = re.compile(r"""%s\s*=\s*["']%s["']""" % (key, re.escape(name)))
    places = [n for n, ln in enumerate(lines, 1) if rx.search(ln)]
    return places, next((n for n, ln in enumerate(lines, 1) if url in ln and "url" in ln), None)


def uv_extras(findings: list, root=None) -> list:
    selections = [i for i, f in enumerate(findings) if _selection(f)]
    if root is None:  # no pyproject.toml to read: a command installing extras names nothing known
        return [f for i, f in enumerate(findings) if i not in set(selections)]
    projects = {f.path for f in findings if PurePosixPath(f.path).name == "pyproject.toml"
                and f.category == _RULE_CATEGORY}
    if not selections and not projects:
        return findings
    texts: dict = {}

    def text_of(rel: str):
        if rel not in texts:
            data, _ = read_bytes(Path(root) / rel, rel, MAX_BYTES)
            texts[rel] = data.decode("utf-8", "replace") if data is not None else None
        return texts[rel]

    indexes: dict = {}

    def indexes_of(rel: str) -> _Indexes | None:
        if rel not in indexes:
            t = text_of(rel) if (Path(root) / rel).is_file() else None
            indexes[rel] = _Indexes(t) if t is not None else None
        return indexes[rel]

    # the index lines of a pyproject.toml holding a finding of the rule (a CUDA wheel index, not the CPU one)
    cuda = {(f.path, f.line) for f in findings if f.path in projects and not _selection(f)}
    out = list(findings)
    drop: set = set()
    selected: dict = {}  # (pyproject, url line) -> selected by a kept command
    for i in selections:
        f = findings[i]
        t = text_of(f.path)
        lines = t.splitlines() if t is not None else []
        # the command as written, to its end (a Dockerfile reports `uv sync --extra ${UV_EXTRA}` without the
        # substituted part)
        shown = re.split(r"[;&|#]", f.snippet[max(f.column - 1, 0):])[0]
        folder = _folder(lines, f.line, f.column) if lines and f.cell is None else ""
        here = str(PurePosixPath(f.path).parent)
        candidates = [posixpath.normpath(posixpath.join(base, folder or "", "pyproject.toml"))
                      for base in ((here, ".") if folder is not None else (".",))]
        found = next((c for c in dict.fromkeys(candidates) if indexes_of(c) is not None), None)
        ix = indexes_of(found) if found else None
        want = _extras(shown, lines)
        hits = [(line, v) for line, v in (ix.by_line.items() if ix else ())
                if (found, line) in cuda and v[0] and (want is None or v[0] & want)]
        if not hits:
            drop.add(i)
            continue
        for line, _v in hits:
            selected[(found, line)] = True
        line, (extras, places, url) = hits[0]
        out[i] = replace(f, message=f"{f.message} installs from the CUDA wheel index {url} "
                                    f"({found}:{places[0] if places else line})")
    for i, f in enumerate(findings):
        if f.path not in projects or i in drop:
            continue
        ix = indexes_of(f.path)
        got = ix.by_line.get(f.line) if ix else None
        if got is None:
            continue
        extras, places, _url = got
        more = tuple((ln, 1, f.rule) for ln in places if ln != f.line)
        g = replace(out[i], occurrences=tuple(dict.fromkeys((*out[i].occurrences, *more))))
        if extras and not selected.get((f.path, f.line)) and not g.guarded and not g.suppressed:
            g = replace(g, guarded=True, guarded_by="opt-in-extra",
                        message=f"{g.message} (only for the extra{'s' if len(extras) > 1 else ''} "
                                f"{', '.join(sorted(extras))}, which no command of the project installs)")
        out[i] = g
    return [f for i, f in enumerate(out) if i not in drop]
