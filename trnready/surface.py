"""Non-Python inputs -> findings: manifests, CUDA sources, containers, shell/YAML/.env, notebooks.

Which kind a file is comes from `discover.file_kind`; `scan_surface(text, rel, kind, engine, path)` is the
single entry point (api.scan_file and api.scan_text call it). The catalogue's matcher kinds used here:

- `requirement = [dist globs]` (+ `version`, `version-shape`, `unless-mentioned`): declared dependencies
  in every manifest and in `pip install` commands of shell lines;
- `python = ["3.12", ...]`: a Python version requirement that admits none of these versions;
- `line = [regexes]` with `files = [kinds]`: a physical line (comments removed) of those kinds;
- `file = [kinds]`: one finding per file of those kinds (CUDA sources list their `__global__` kernels).
"""
from __future__ import annotations

import fnmatch
import hashlib

import json
import re
import sys
from dataclasses import replace
from pathlib import Path

from . import requirements as rq
from .linear_re import PatternError, compile_pattern
from .model import Diagnostic, Finding, fingerprint
from .read import DEFAULT_MAX_BYTES, read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LINE_DEFAULT_KINDS = ("shell", "yaml", "dockerfile", "env")
# Kinds whose text may hold `pip install` commands.
SHELL_LIKE = ("shell", "yaml", "dockerfile", "env")
MANIFEST_KINDS = ("requirements", "pyproject", "setup-cfg", "conda", "pipfile")
_CONDA_SHAPE = re.compile(r"(?m)^dependencies\s*:")
_CONDA_CHANNELS = re.compile(r"(?m)^(?:channels|name)\s*:")
# `echo "..."` / `printf "..."` print text (messages, hints, help); unless the output is redirected into a file
# (`echo "export CUDA_VISIBLE_DEVICES=0" >> ~/.bashrc`), what they print is not configuration.
_ECHO = re.compile(r"(?<![\w-])(?:echo|printf)\b(?P<args>[^;&|>\n]*)(?=$|;|&|\|(?!\s*(?:sudo\s+)?tee\b))")


def quiet_echo(text: str) -> str:
    """Blank the arguments of echo/printf commands that only print (same length: columns stay put)."""
    if "echo" not in text and "printf" not in text:
        return text
    return _ECHO.sub(lambda m: m.group(0)[: m.start("args") - m.start()] + " " * len(m.group("args")), text)


_SLASH_COMMENT = re.compile(r"(?:^|(?<=\s))//.*$")
# JSON files larger than this are data (vocabularies, datasets, benchmark results), not job definitions.
JSON_CONFIG_MAX = 256 * 1024
# Diagnostics that keep the file's findings: the file was scanned, only in part or with a dangling include.
PARTIAL_KINDS = frozenset({"cell-syntax-error", "missing-include", "too-many-findings", "invalid-text",
                           "undecodable-name", "long-line",
                           "refused-include"})
_SHELL_CELL_MAGICS = ("%%bash", "%%sh", "%%script bash", "%%script sh", "%%shell", "%%system")


# ---------------------------------------------------------------- catalogue keys

def check_kind_names(kind: str, names) -> str | None:
    if kind == "python":
        for n in names:
            if not re.fullmatch(r"\d+\.\d+", n):
                return f"bad Python version {n!r}: expected MAJOR.MINOR such as \"3.12\""
    if kind == "file":
        from .catalogue import FILE_KINDS
        for n in names:
            if n not in FILE_KINDS or n == "python":
                return f"file matchers name non-Python file kinds ({', '.join(FILE_KINDS[1:])}), got {n!r}"
    return None


def parse_surface_keys(kind: str, m: dict, err) -> dict:
    """version / version-shape / unless-mentioned / scope -> Matcher fields (validated)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    out: dict = {}
    if "version" in m or "version-shape" in m:
        if kind != "requirement":
            err("version and version-shape apply to requirement matchers only", "match.version")
    if "version" in m:
        try:
            out["version"] = SpecifierSet(m["version"])
        except (InvalidSpecifier, TypeError) as e:
            err(f"bad version specifier: {e}", "match.version")
    if "version-shape" in m:
        try:
            out["version_shape"] = compile_pattern(m["version-shape"])
        except PatternError as e:
            err(f"bad regular expression: {e}", "match.version-shape")
    scope = m.get("scope", "file")
    if scope not in ("file", "repo"):
        err("scope must be \"file\" or \"repo\"", "match.scope")
    out["scope"] = scope
    um = m.get("unless-mentioned", [])
    if isinstance(um, str):
        um = [um]
    if not isinstance(um, list) or not all(isinstance(x, str) and x for x in um):
        err("must be a list of non-empty strings", "match.unless-mentioned")
    if um and scope == "file" and kind not in ("requirement", "line", "file", "python"):
        err("unless-mentioned on a Python matcher needs scope = \"repo\"", "match.unless-mentioned")
    if scope == "repo" and not um:
        err("a repo-scoped matcher needs unless-mentioned", "match.scope")
    if kind == "line" and any(f in ("python", "notebook") for f in m.get("files", [])):
        err("line matchers read non-Python files; notebook shell escapes count as \"shell\"", "match.files")
    out["unless_mentioned"] = tuple(um)
    where = m.get("mentioned-in", "repo" if scope == "repo" else "file")
    if where not in ("file", "repo") or (scope == "repo" and where != "repo"):
        err("mentioned-in must be \"file\" or \"repo\" (repo-scoped matchers look in the whole repo)",
            "match.mentioned-in")
    if "mentioned-in" in m and not um:
        err("mentioned-in needs unless-mentioned", "match.mentioned-in")
    out["mentioned_in"] = where
    return out


# ---------------------------------------------------------------- findings

class Emitter:
    """Builds Finding records for one file (stable fingerprints: path + rule + code + repeat index)."""

    def __init__(self, rel: str):
        self.rel = rel
        self.out: list[Finding] = []
        self.counts: dict = {}
        self.seen: set = set()

    def add(self, rule, matcher, line: int, column: int, end_column: int, snippet: str, message: str,
            code: str, cell: int | None = None, rel: str | None = None):
        rel = rel or self.rel
        # One finding per rule and line: `pip install torch==1.10+cu111 torchvision==0.11+cu111 -f .../cu111/...`
        # is one place to fix, not three.
        key = (rel, cell, rule.id, line)
        if key in self.seen:
            return
        self.seen.add(key)
        fp_path = rel if cell is None else f"{rel}#cell"
        base = (fp_path, rule.id, " ".join(code.split()))
        n = self.counts.get(base, 0)
        self.counts[base] = n + 1
        self.out.append(Finding(
            rule=rule.id, category=rule.category, severity=rule.severity, confidence=matcher.confidence,
            path=rel, line=line, column=max(1, column), end_line=line, end_column=max(column, end_column),
            snippet=snippet.rstrip("\r\n"), message=message, fix=rule.fix, docs=rule.docs, source=rule.source,
            fingerprint=fingerprint(fp_path, rule.id, code, n), title=rule.title, cell=cell))


def _msg(rule, matcher, name: str, **fields) -> str:
    if matcher.message:
        try:
            return matcher.message.format(name=name, **fields)
        except (KeyError, IndexError, ValueError):
            return matcher.message
    return f"{rule.title}: `{name}`"


def _mentioned(matcher, text: str) -> bool:
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


def emit_deps(deps, lines: list[str], engine, em: Emitter, mention_text: str, cell=None, rel=None):
    for d in deps:
        for rule, m in _matching_requirement_rules(engine, d.name):
            if m.version is not None and not (d.alternatives and all(rq.ceiling_in(s, m.version)
                                                                     for s in d.alternatives)):
                continue
            if m.version_shape is not None and not any(m.version_shape.search(v) for v in d.versions):
                continue
            if m.unless_mentioned and _mentioned(m, mention_text):
                continue
            snippet = lines[d.line - 1] if 0 < d.line <= len(lines) else d.raw
            em.add(rule, m, d.line, d.column, d.end_column, snippet, _msg(rule, m, d.raw), d.raw, cell=cell, rel=rel)


def emit_pyreqs(pyreqs, lines: list[str], engine, em: Emitter, mention_text: str, cell=None):
    for r in pyreqs:
        for rule, m in engine.surface.get("python", ()):
            if m.unless_mentioned and _mentioned(m, mention_text):
                continue
            if rq.python_excludes_all(r, m.names):
                snippet = lines[r.line - 1] if 0 < r.line <= len(lines) else r.raw
                em.add(rule, m, r.line, r.column, r.end_column, snippet,
                       _msg(rule, m, r.raw.strip(), versions=", ".join(m.names)), r.raw, cell=cell)


def emit_lines(kind: str, lines: list[str], engine, em: Emitter, mention_text: str, cell=None,
               only: set | None = None):
    """Line matchers for `kind`; `only` restricts to some 1-based line numbers (notebook shell lines)."""
    matchers = [(r, m) for r, m in engine.lines if kind in (m.files or LINE_DEFAULT_KINDS)]
    if not matchers:
        return
    for n, ln in enumerate(lines, 1):
        if only is not None and n not in only:
            continue
        if kind == "shell" and ln.lstrip().startswith("#SBATCH"):
            body = rq.strip_comment(ln.replace("#SBATCH", "       ", 1))  # a Slurm directive, not a comment
        else:
            body = rq.strip_comment(ln)
        if kind in ("json", "terraform", "cuda"):  # JSONC / HCL / C++ `//` comments
            body = _SLASH_COMMENT.sub("", body)
        elif kind in SHELL_LIKE:
            body = quiet_echo(body)
        if not body.strip():
            continue
        # Matched without its indentation (columns shifted back below): `^\s*-?\s*` over a long run of
        # spaces backtracks quadratically, and a pattern cannot tell indentation from nothing.
        indent = len(body) - len(body.lstrip())
        body = body[indent:]
        for rule, m in matchers:
            hit = m.regex.search(body)
            if hit is None or (m.unless_mentioned and _mentioned(m, mention_text)):
                continue
            at = m.regex.groupindex.get("at")  # by number: RE2's match objects take no group names
            g = at if at is not None and hit.group(at) is not None else 0
            text = hit.group(g)  # a group named `at` marks the part to report (the rest is context)
            start = indent + hit.start(g) + len(text) - len(text.lstrip())
            em.add(rule, m, n, start + 1, indent + hit.end(g) + 1, ln, _msg(rule, m, text.strip()), ln.strip(), cell=cell)


def _shell_commands(lines: list[str], only: set | None):
    """(command text, positions) of each logical shell line that is not a comment."""
    for text, pos in rq.logical_lines(lines):
        if only is not None and pos and pos[0][0] not in only:
            continue
        if text and not text.lstrip().startswith("#"):
            yield text, pos


def shell_deps(lines: list[str], only: set | None = None) -> list:
    out = []
    for body, pos in _shell_commands(lines, only):
        out.extend(rq.pip_deps(quiet_echo(body), pos))
    return out


def shell_pyreqs(lines: list[str], only: set | None = None) -> list:
    """Python versions installed by conda/uv/pyenv commands (variables resolved from ARG/ENV/export lines)."""
    assigns = rq.shell_assignments(lines)
    out = []
    for body, pos in _shell_commands(lines, only):
        out.extend(rq.shell_pyreqs(quiet_echo(rq.strip_comment(body)), pos, assigns))
    return out


def _uncommented(text: str) -> str:
    return "\n".join(rq.strip_comment(ln) for ln in text.splitlines())


# ---------------------------------------------------------------- CUDA sources

_CUDA_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", re.S)
_GLOBAL = re.compile(r"\b__global__\b")
_IDENT_PAREN = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*(?:<[^<>;{}()]*>\s*)?\(")


def cuda_kernels(text: str) -> list[tuple[str, int]]:
    """Names and lines of the `__global__` functions *defined* in a CUDA source (declarations skipped)."""
    clean = _CUDA_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    clean = re.sub(r"__launch_bounds__\s*\([^)]*\)", lambda m: " " * len(m.group(0)), clean)
    out, seen = [], set()
    for g in _GLOBAL.finditer(clean):
        m = _IDENT_PAREN.search(clean, g.end())
        if not m:
            continue
        depth, i = 0, m.end() - 1
        while i < len(clean):
            ch = clean[i]
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                break
            i += 1
        rest = clean[i + 1:].lstrip()
        if not rest.startswith("{"):
            continue  # a prototype
        name = m.group(1)
        pos = (name, clean.count("\n", 0, m.start()) + 1)
        if pos not in seen:  # overloads (float / half variants) are separate kernels to port
            seen.add(pos)
            out.append(pos)
    return out


def _kernel_names(kernels) -> str:
    counts: dict = {}
    for k, _ in kernels:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def scan_cuda(text: str, lines, engine, em: Emitter, kind: str):
    kernels = cuda_kernels(text)
    for rule, m in engine.surface.get("file", ()):
        if kind not in m.names:
            continue
        names = _kernel_names(kernels)
        if kernels:
            line = kernels[0][1]
            msg = (f"{rule.title}: {len(kernels)} __global__ kernel{'s' if len(kernels) != 1 else ''} "
                   f"to port to NKI ({names})")
        else:
            line = 1
            msg = (f"{rule.title}: no __global__ kernel defined in this file (device helpers, launchers or "
                   f"template instantiations of kernels defined elsewhere)")
        if m.message:
            msg = _msg(rule, m, em.rel, count=len(kernels), names=names or "none")
        snippet = lines[line - 1] if 0 < line <= len(lines) else ""
        em.add(rule, m, line, 1, len(snippet) + 1, snippet, msg, f"{kind}:{names}")


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
    from .discover import _dir_kind, file_kind

    extra, nested, problems = [], [], []
    seen = {path.resolve()}
    record = inputs.append if inputs is not None else (lambda item: None)
    root = _scan_root(path, rel)
    root_real = root.resolve() if root is not None else None

    def inside(rp: Path) -> bool:
        return root_real is not None and (rp == root_real or root_real in rp.parents)

    def read(q: Path) -> str:
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
                body = read(q)
            except OSError as e:
                problems.append(("refused", src, line, opt, target, f"not read: {e.strerror or e}"))
                continue
            record((str(rp), body))
            extra.append(_uncommented(body))
            if (file_kind(q.name) or _dir_kind(q.parent.name, q.name)) != "requirements":
                # not discovered on its own: scan it together with the file that includes it
                nested.append((q, body))
            walk(q, body, depth + 1)

    walk(path, text, 0)
    try:
        for sib in sorted(path.parent.iterdir()):
            if sib == path or not sib.is_file() or \
                    (file_kind(sib.name) or _dir_kind(sib.parent.name, sib.name)) != "requirements":
                continue
            try:
                if not inside(sib.resolve()):
                    continue
                body = read(sib)
            except OSError:
                continue
            record((str(sib), body))
            if any(Path(t).name == path.name for _, _, t in rq.parse_requirements(body)[1]):
                extra.append(_uncommented(body))
    except OSError:
        pass
    return "\n".join(extra), nested, problems


def inputs_digest(data: bytes, rel: str, kind: str, path: Path | None) -> str:
    """A hash of the other files one file's result depends on ("" when it depends on none).

    Only requirements files read others (-r/-c includes, siblings that include them)."""
    if kind != "requirements" or path is None:
        return ""
    text, diag = decode_text(data, rel)
    if diag is not None:
        return ""
    inputs: list = []
    _requirements_context(path, rel, text, inputs)
    h = hashlib.sha256()
    for name, body in inputs:
        h.update(name.encode("utf-8", "surrogatepass") + b"\0")
        h.update(b"-" if body is None else hashlib.sha256(body.encode("utf-8", "surrogatepass")).digest())
    return h.hexdigest()


def _rel_of(base_rel: str, base_path: Path, other: Path) -> str:
    import os
    rel = os.path.normpath(os.path.join(os.path.dirname(base_rel), os.path.relpath(other, base_path.parent)))
    return Path(rel).as_posix()


# ---------------------------------------------------------------- notebooks

_MAGIC_LINE = re.compile(r"^(\s*)(?:[\w.,\s\[\]()]+=\s*)?[!%]")
_HELP_LINE = re.compile(r"^\s*(?:\?{1,2}[\w.]+|[\w.]+(?:\(\))?\?{1,2})\s*$")


def notebook_cells(text: str):
    """-> (cells [(index, cell_type, source)], error message or None)."""
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError) as e:
        return [], f"not valid notebook JSON: {e}"
    if not isinstance(nb, dict):
        return [], "not a notebook: the top level is not a JSON object"
    cells = nb.get("cells")
    if cells is None and isinstance(nb.get("worksheets"), list) and nb["worksheets"]:
        ws = nb["worksheets"][0]
        cells = ws.get("cells") if isinstance(ws, dict) else None  # nbformat 3
    if not isinstance(cells, list):
        return [], "not a notebook: no `cells` list"
    out = []
    for i, c in enumerate(cells):
        if not isinstance(c, dict):
            continue
        src = c.get("source", c.get("input", ""))
        if isinstance(src, list):
            src = "".join(s for s in src if isinstance(s, str))
        if not isinstance(src, str):
            continue
        out.append((i, c.get("cell_type", "code"), src))
    return out, None


def split_cell(src: str):
    """A code cell -> (python text with magics blanked, shell line numbers, mode).

    mode is "python", "shell" (%%bash-style cells) or "skip" (other cell magics: %%html, %%writefile x.txt...).
    Blanked lines become `pass` at the same indentation, so line numbers and blocks stay intact.
    """
    lines = src.splitlines()
    if not lines:
        return "", set(), "python"
    first = lines[0].strip()
    if first.startswith("%%"):
        if first.startswith(_SHELL_CELL_MAGICS):
            return "", set(range(2, len(lines) + 1)), "shell"
        if first.startswith(("%%time", "%%timeit", "%%capture", "%%prun", "%%memit", "%%debug")) or \
                (first.startswith("%%writefile") and first.rstrip().endswith(".py")):
            lines = [""] + lines[1:]
        else:
            return "", set(), "skip"
    shell, out = set(), []
    cont = False
    for n, ln in enumerate(lines, 1):
        m = _MAGIC_LINE.match(ln)
        if cont or (m and not ln.strip().startswith(("%=", "!="))):
            indent = m.group(1) if m else re.match(r"^\s*", ln).group(0)
            shell.add(n)
            out.append(indent + "pass" if not cont else "")
            cont = ln.rstrip().endswith("\\")
            continue
        if _HELP_LINE.match(ln):
            out.append(re.match(r"^\s*", ln).group(0) + "pass")
            continue
        out.append(ln)
    return "\n".join(out), shell, "python"


def scan_notebook(text: str, rel: str, engine, em: Emitter):
    from .pyscan import scan_python

    cells, error = notebook_cells(text)
    if error:
        return Diagnostic(rel, "malformed-notebook", error)
    # JSON may spell lone surrogates (\\ud800) that no UTF-8 output can carry: each becomes U+FFFD,
    # one character for one, so columns stay right.
    surrogates = [i for i, _, src in cells if not src.isascii() and _LONE_SURROGATE.search(src)]
    if surrogates:
        cells = [(i, t, _LONE_SURROGATE.sub("\ufffd", src)) for i, t, src in cells]
    diag = _scan_cells(cells, rel, text, engine, em)
    if surrogates:
        note = (f"lone surrogate code points in cell{'s' if len(surrogates) > 1 else ''} "
                f"{', '.join(str(i + 1) for i in surrogates[:5])} replaced with U+FFFD")
        diag = Diagnostic(rel, "invalid-text", note) if diag is None else replace(diag, message=f"{diag.message}; {note}")
    return diag


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scan_cells(cells, rel: str, text: str, engine, em: Emitter):
    from .pyscan import scan_python

    code_cells = [(i, src) for i, t, src in cells if t == "code" and src.strip()]
    mention = text
    parsed = 0
    bad: list = []
    for i, src in code_cells:
        py, shell, mode = split_cell(src)
        lines = src.splitlines()
        written = _writefile_kind(lines[0]) if lines else None
        if written is not None:  # %%writefile requirements.txt / Dockerfile / run.sh: scan the body as that file
            parsed += 1
            body = "\n".join(lines[1:])
            found, _ = scan_surface(body, rel, written, engine)
            em.out.extend(replace(f, line=f.line + 1, end_line=f.end_line + 1, cell=i) for f in found)
            continue
        if shell:
            emit_lines("shell", lines, engine, em, mention, cell=i, only=shell)
            emit_deps(shell_deps(lines, only=shell), lines, engine, em, mention, cell=i)
            emit_pyreqs(shell_pyreqs(lines, only=shell), lines, engine, em, mention, cell=i)
        if mode != "python":
            parsed += 1
            continue
        findings, diag = scan_python(py, rel, engine, cell=i)
        if diag is not None and py != src:
            # a `%` or `!` at the start of a continuation line can be Python (`x = (a\n % b)`)
            first = diag
            findings, diag = scan_python(src, rel, engine, cell=i)
            diag = first if diag is not None else None
        if diag is not None:  # one cell with a syntax error does not stop the rest of the notebook
            bad.append((i, diag.message))
            continue
        parsed += 1
        for f in findings:  # snippets come from the original cell text, not the blanked copy
            snip = lines[f.line - 1] if 0 < f.line <= len(lines) else f.snippet
            em.out.append(f if snip == f.snippet else _replace_snippet(f, snip))
    if code_cells and not parsed:
        return Diagnostic(rel, "syntax-error", "no code cell of the notebook parses as Python")
    if bad:
        where = "; ".join(f"cell {i}: {msg}" for i, msg in bad[:5]) + (f"; ... ({len(bad)} cells)" if len(bad) > 5 else "")
        return Diagnostic(rel, "cell-syntax-error",
                          f"{len(bad)} code cell{'s' if len(bad) != 1 else ''} not scanned as Python ({where}); "
                          f"the other cells were scanned")
    return None


def _replace_snippet(f: Finding, snippet: str) -> Finding:
    return replace(f, snippet=snippet.rstrip("\r\n"))


def _writefile_kind(first: str):
    """`%%writefile [-a] requirements.txt` -> the non-Python kind of the file the cell writes, else None."""
    m = re.match(r"^\s*%%writefile\s+(?:-a\s+|--append\s+)?[\"']?([^\s\"']+)", first)
    if not m:
        return None
    from .discover import file_kind
    kind = file_kind(Path(m.group(1)).name)
    return kind if kind not in (None, "python", "notebook") else None


# ---------------------------------------------------------------- entry point

def decode_text(data: bytes, rel: str):
    if b"\x00" in data:
        return None, Diagnostic(rel, "binary", "contains NUL bytes; not a text file")
    # Manifests, Dockerfiles and scripts are line-oriented: a stray Latin-1 byte in a comment must not
    # hide the rest of the file, so undecodable bytes become U+FFFD and the line structure stays.
    text = data.decode("utf-8", errors="replace")
    return (text[1:] if text.startswith("\ufeff") else text), None


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


def scan_surface(text: str, rel: str, kind: str, engine, path: Path | None = None):
    """One non-Python file (or setup.py's manifest part) -> (findings, diagnostic or None)."""
    if kind in ("notebook", "setup-py"):  # JSON text / Python: their own readers see the structure
        return _scan_surface(text, rel, kind, engine, path)
    text, cap_diag = cap_lines(text, rel)
    findings, diag = _scan_surface(text, rel, kind, engine, path)
    if cap_diag is not None:
        diag = cap_diag if diag is None else replace(diag, message=f"{diag.message}; {cap_diag.message}")
    return findings, diag


def _scan_surface(text: str, rel: str, kind: str, engine, path: Path | None = None):
    em = Emitter(rel)
    lines = text.splitlines()
    if kind == "notebook":
        diag = scan_notebook(text, rel, engine, em)
        # shell lines (`!pip install ...`) are read even when no cell parses as Python (a Python 2 notebook)
        return ([] if diag and diag.kind == "malformed-notebook" else em.out), diag
    if kind == "cuda":
        scan_cuda(text, lines, engine, em, kind)
        emit_lines(kind, lines, engine, em, text)
        return em.out, None
    if kind == "yaml" and "/ISSUE_TEMPLATE/" in f"/{rel}":
        return [], None  # GitHub issue forms: prose and dropdown choices, never run or deployed
    mention = _uncommented(text) if kind != "setup-py" else text
    if kind == "requirements":
        deps, _ = rq.parse_requirements(text)
        extra, nested, problems = _requirements_context(path, rel, text)
        emit_deps(deps, lines, engine, em, mention + "\n" + extra)
        emit_lines(kind, lines, engine, em, mention)
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
        return em.out, diag
    if kind in ("pyproject", "pipfile"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            return [], Diagnostic(rel, "syntax-error", f"invalid TOML: {e}")
        man = rq.parse_pyproject(data, text) if kind == "pyproject" else rq.parse_pipfile(data, text)
    elif kind == "setup-cfg":
        man = rq.parse_setup_cfg(text)
    elif kind == "python-version":
        man = rq.parse_python_version_file(text)
    elif kind == "conda":
        man = rq.parse_conda(text)
    elif kind == "setup-py":
        from .pyscan import parse
        tree, diag = parse(text, rel)
        if diag is not None:
            return [], None  # the Python scan reports the syntax error
        man = rq.parse_setup_py(tree, lines)
    elif kind in ("json", "terraform"):
        if kind == "json" and len(text) > JSON_CONFIG_MAX:
            return [], None  # a data file (tokenizer, dataset, results), not a job definition
        man = rq.Manifest()
    elif kind in SHELL_LIKE:
        man = rq.Manifest(deps=shell_deps(lines), pyreqs=shell_pyreqs(lines))
        if kind == "yaml" and _CONDA_SHAPE.search(text) and _CONDA_CHANNELS.search(text):
            conda = rq.parse_conda(text)  # a conda environment under another name (env.yml, gpu.yaml)
            man.deps += conda.deps
            man.pyreqs += conda.pyreqs
    else:
        return [], None
    emit_deps(man.deps, lines, engine, em, mention)
    emit_pyreqs(man.pyreqs, lines, engine, em, mention)
    if kind != "setup-py":
        emit_lines(kind, lines, engine, em, mention)
    return em.out, None
