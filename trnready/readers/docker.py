"""Dockerfiles: ARG / ENV defaults and shell variables flow into FROM, RUN and `pip install` before matching.

`ARG BASE_IMAGE=nvcr.io/nvidia/pytorch:24.05-py3` ... `FROM ${BASE_IMAGE}` is a CUDA base image; so is
`ARG CUDA_VERSION=11.3.1` + `ARG BASE_IMAGE=${CUDA_VERSION:+"nvidia/cuda:${CUDA_VERSION}-devel"}`, and
`ARG PYTORCH_VERSION=2.1.2` + `RUN pip install torch==${PYTORCH_VERSION}` pins an old torch. Each line is
expanded with the values known at that point (`$X`, `${X}`, `${X:-default}`, `${X:+alternative}`), keeping
for every character where it came from. A finding whose text comes entirely from a variable is reported where
the variable got its value (that is the line to change); one with literal text of its own stays on its line.

An ARG/ENV holding the Python version (`ARG PYTHON_VERSION=3.10`) that the file uses is a Python requirement
of the image, reported at the ARG. Each line is expanded once and values are capped: linear in the input.

A Dockerfile whose path names another accelerator (`docker/peft-gpu/Dockerfile`, `Dockerfile.rocm`: a path
token in [context.values] other-accelerator-labels) next to the same path without it, or with a CPU or Neuron
label instead ([context.values] image-variant-labels: `docker/peft-cpu/Dockerfile`, `Dockerfile`), is one of
the project's per-accelerator variants of one image, which a Neuron port leaves alone and complements with a
Neuron variant: its findings are guarded, except those on the
lines that choose the base image (FROM, and the ARGs before the first FROM that parameterise it), the one item
to act on. A project's only image stays fully reported even when its name says CUDA: that image is the one to
port.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .. import requirements as rq
from ..filekinds import comments
from .context import FileContext, ReadResult, Source
from .emit import Emitter, emit_deps, emit_pyreqs, mentioned, msg, uncommented
from .distro_python import distro_pyreqs
from .lines import fold_builds, quiet_echo, shell_pyreqs

_MAX_VALUE = 512  # longer expansions are not image names, URLs or versions; keeps chained ARGs linear
_DECL = re.compile(r"^\s*(?P<kw>ARG|ENV)\s+(?P<rest>.*)$", re.I)
_PAIR = re.compile(r"(?P<name>[A-Za-z_]\w*)=(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s\"']*)")
_SHELL_ASSIGN = re.compile(r"(?:^|(?<=[;&|(]\s)|(?<=[;&|(])|(?<=\bexport\s)|(?<=\bRUN\s))\s*"
                           r"(?P<name>[A-Za-z_]\w*)=(?P<value>\"(?:[^\"\\`]|\\.)*\"|'[^']*'|[^\s;&|`$()\"']+)")
_PY_VAR = re.compile(r"(?i)^(?:python|py)(?:_?(?:version|ver))?$")
_PY_VALUE = re.compile(r"^(\d\.\d{1,2})(?:\.\d+)?$")
_TORCH_VAR = re.compile(r"(?i)^(?:py)?torch(?:_?version)?$")
_TORCH_VALUE = re.compile(r"^\d+\.\d+(?:\.\d+)?(?:\+\w+)?$")

# A position: (line, 0-based column, substituted?) of one character of an expanded line.


def _expand(text: str, base: list, env: dict, depth: int = 0):
    """text with positions `base` -> (expanded text, positions). Unknown variables stay as written."""
    out: list[str] = []
    pos: list = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "$" or i + 1 >= n or depth > 4:
            out.append(ch)
            pos.append(base[i])
            i += 1
            continue
        if text[i + 1] == "{":
            j, level = i + 2, 1
            while j < n and level:
                level += text[j] == "{"
                level -= text[j] == "}"
                j += 1
            inner = text[i + 2: j - 1]
            m = re.match(r"([A-Za-z_]\w*)(?:(:?[-+])(.*))?$", inner, re.S)
            if not m or level:
                out.append(ch)
                pos.append(base[i])
                i += 1
                continue
            name, op, word = m.group(1), m.group(2), m.group(3)
            have = env.get(name)
            set_ = have is not None and (have[0] != "" or op in ("-", "+"))
            if op and op.endswith("+"):
                piece = (word, base[i + 2 + m.start(3): i + 2 + m.end(3)]) if set_ else ("", [])
                piece = _expand(*piece, env, depth + 1) if piece[0] else piece
            elif op and op.endswith("-") and not set_:
                piece = _expand(word, base[i + 2 + m.start(3): i + 2 + m.end(3)], env, depth + 1)
            elif have is not None:
                piece = have
            else:
                piece = (text[i:j], base[i:j])  # unknown: kept literally
            value, vpos = _unquote(*piece)
            out.extend(value)
            pos.extend(vpos)
            i = j
            continue
        m = re.match(r"[A-Za-z_]\w*", text[i + 1:])
        if m and m.group(0) in env:
            value, vpos = env[m.group(0)]
            out.extend(value)
            pos.extend(vpos)
            i += 1 + m.end()
            continue
        out.append(ch)
        pos.append(base[i])
        i += 1
    return "".join(out), pos


def _unquote(value: str, pos: list):
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1], pos[1:-1]
    return value, pos


def _define(env: dict, name: str, value: str, vpos: list):
    value, vpos = _unquote(value, vpos)
    if len(value) > _MAX_VALUE:
        value, vpos = value[:_MAX_VALUE], vpos[:_MAX_VALUE]
    env[name] = (value, [(p[0], p[1], True) for p in vpos])


def expand_lines(lines: list[str]):
    """Every physical line -> (expanded text, positions); also the variables and where each was defined."""
    env: dict = {}
    alts: dict = {}  # name -> every value a shell variable was given (if/else branches)
    defs: dict = {}  # name -> (line, column, value) of the ARG/ENV that set it
    expanded = []
    for n, raw in enumerate(lines, 1):
        base = [(n, c, False) for c in range(len(raw))]
        text, pos = _expand(raw, base, env)
        expanded.append((text, pos))
        d = _DECL.match(raw)
        if d:
            rest_at = d.start("rest")
            rest = raw[rest_at:]
            pairs = list(_PAIR.finditer(rest))
            if not pairs and d.group("kw").upper() == "ENV":  # legacy `ENV NAME value`
                m = re.match(r"([A-Za-z_]\w*)\s+(.+?)\s*$", rest)
                pairs = [m] if m else []
                spans = [(m.start(1), m.group(1), m.start(2), m.end(2))] if m else []
            else:
                spans = [(p.start("name"), p.group("name"), p.start("value"), p.end("value")) for p in pairs]
            for _, name, a, b in spans:
                piece = _expand(raw[rest_at + a: rest_at + b], base[rest_at + a: rest_at + b], env)
                _define(env, name, *piece)
                v, vp = env[name]
                if vp:
                    defs.setdefault(name, (vp[0][0], vp[0][1] + 1, v))
            continue
        for m in _SHELL_ASSIGN.finditer(raw):
            a, b = m.start("value"), m.end("value")
            piece = _expand(raw[a:b], base[a:b], env)
            _define(env, m.group("name"), *piece)
            alts.setdefault(m.group("name"), []).append(env[m.group("name")])
    return expanded, env, alts, defs


def _location(text: str, pos: list, a: int, b: int, n: int):
    """Where to report expanded text [a, b) of line n: on line n when it has literal text of its own there
    (besides the Dockerfile keyword and punctuation), else where its first substituted character was set."""
    start = a
    kw = re.match(r"(?i)\s*(?:FROM|ARG|ENV|RUN)\s+(?:--platform=\S+\s+)?", text[a:b])
    if kw:
        a += kw.end()
    own = [p for ch, p in zip(text[a:b], pos[a:b]) if not p[2] and p[0] == n and ch not in " \t\"'=:@/${}"]
    if own or a >= b:
        cols = [p[1] for p in pos[start:b] if not p[2] and p[0] == n] or [start]
        return n, min(cols) + 1, max(cols) + 2
    line = pos[a][0]
    cols = [p[1] for p in pos[a:b] if p[0] == line]
    return line, min(cols) + 1, max(cols) + 2


def _add_use(em: Emitter, rule: str, line: int, use: int, raw: str) -> None:
    """`ARG BASE_IMAGE=nvcr.io/...` + `FROM ${BASE_IMAGE}`: the finding stays at the ARG (the value to change), and
    the FROM line is listed as its occurrence (where the image is used: what a reader of the stage looks at)."""
    for k in range(len(em.out) - 1, -1, -1):
        f = em.out[k]
        if f.rule == rule and f.line == line:
            col = raw.find("$") + 1 or 1
            if all(o[0] != use for o in f.occurrences):
                em.out[k] = replace(f, occurrences=tuple(sorted({*f.occurrences, (use, col, rule)})))
            return


def _add_definitions(em: Emitter, rule: str, line: int, text: str, pos: list, a: int, b: int) -> None:
    """`ARG IMG_TAG=1.8.1-cuda10.2-cudnn7-devel` + `FROM pytorch/$IMG_REPO:$IMG_TAG`, reported at the FROM (it has
    text of its own): an ARG/ENV whose value is a whole part of the matched reference (the repository, the tag:
    bounded by the start, `/`, `:`, `@` or the end) is where that part is written, listed as an occurrence at its
    first character. A value spliced into a part (`cu${CUDA_VERSION}`, `${CUDA_VERSION}-cudnn-devel`) is a version,
    not the part to change, and is not listed."""
    where: dict = {}
    i = a
    while i < b:
        ln, c, substituted = pos[i]
        if not substituted or ln == line:
            i += 1
            continue
        j = i
        while j < b and pos[j][2] and pos[j][0] == ln:
            j += 1
        before = text[i - 1] if i > a else "/"
        after = text[j] if j < b else "/"
        if before in _PART_EDGE and after in _PART_EDGE:
            where[ln] = min(where.get(ln, c), c)
        i = j
    if not where:
        return
    for k in range(len(em.out) - 1, -1, -1):
        f = em.out[k]
        if f.rule == rule and f.line == line:
            have = {o[0] for o in f.occurrences}
            more = {(ln, c + 1, rule) for ln, c in where.items() if ln not in have}
            if more:
                em.out[k] = replace(f, occurrences=tuple(sorted({*f.occurrences, *more})))
            return


_PART_EDGE = frozenset("/:@ \t\"'=")


_ENV_OF_ARG = re.compile(r"""(?i)^\s*ENV\s+(\w+)(?:\s*=\s*|\s+)(["']?)\$\{?(\w+)\}?\2\s*$""")


def _passed_arg(lines: list[str], line: int) -> int:
    """`ARG TORCH_CUDA_ARCH_LIST="..."` then `ENV TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}"`: the ENV line only
    passes the build argument on to the image's environment, so a finding of the same rule at the ARG is the one
    thing to change (the ENV line is its place). The line of that ARG (the last before), or 0."""
    m = _ENV_OF_ARG.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if m is None or m.group(1) != m.group(3):
        return 0
    decl = re.compile(rf"(?i)^\s*ARG\s+{re.escape(m.group(1))}(?:=|\s*$)")
    return next((k for k in range(line - 1, 0, -1) if decl.match(lines[k - 1])), 0)


def read(ctx: FileContext) -> ReadResult:
    text = ctx.text
    em = Emitter(ctx.rel)
    lines = text.splitlines()
    mention = uncommented(text)
    expanded, env, alts, defs = expand_lines(lines)
    engine = ctx.engine
    matchers = [(r, m) for r, m in engine.lines if "dockerfile" in (m.files or ("shell", "yaml", "dockerfile", "env"))]
    for n, (etext, pos) in enumerate(expanded, 1):
        body = quiet_echo(rq.strip_comment(etext))
        if not body.strip():
            continue
        for rule, m in matchers:
            hit = m.regex.search(body)
            if hit is None or (m.unless_mentioned and mentioned(m, mention)):
                continue
            # the group's number: the linear-time (RE2) matcher of a team catalogue takes no group name in start()
            g = m.regex.groupindex["at"] if "at" in m.regex.groupindex and hit.group("at") is not None else 0
            a, b = hit.start(g), hit.end(g)
            shown = hit.group(g).strip()
            line, col, end = _location(etext, pos, a, b, n)
            arg = _passed_arg(lines, line)
            if arg and any(f.rule == rule.id and f.line == arg for f in em.out):
                _add_use(em, rule.id, arg, line, lines[line - 1])
                continue
            snippet = lines[line - 1] if 0 < line <= len(lines) else ""
            em.add(rule, m, line, col, end, snippet, msg(rule, m, shown), snippet.strip())
            if line != n:  # reported where the variable is set; the line using it is a place of the same thing
                _add_use(em, rule.id, line, n, lines[n - 1])
            elif _FROM.match(lines[n - 1]):
                # reported at the FROM (`FROM pytorch/$IMG_REPO:$IMG_TAG` has text of its own): the ARG lines whose
                # values are parts of the image (`ARG IMG_TAG=1.8.1-cuda10.2-cudnn7-devel`) are places of it
                _add_definitions(em, rule.id, n, etext, pos, a, b)
    refs = _references(lines)
    # FROM lines already reported (a CUDA base image): a torch version spliced into their tag is part of that image
    images = {f.line for f in em.out if 0 < f.line <= len(lines) and _FROM.match(lines[f.line - 1])}
    emit_deps(_deps(expanded, alts, lines) + _torch_args(defs, refs, images), lines, engine, em, mention)
    pyreqs = shell_pyreqs(lines) + _python_args(defs, refs)
    pyreqs += distro_pyreqs(lines, expanded, engine.catalogue.context_values, tuple(r.line for r in pyreqs))
    emit_pyreqs(pyreqs, lines, engine, em, mention)
    found = one_build_per_step(em.out, lines, engine)
    found = guard_lone_exports(found, lines)
    if _is_variant(ctx, engine.catalogue.context_values):
        base = _base_image_lines(lines)
        found = [f if f.line in base else replace(f, guarded=True, guarded_by="image-variant") for f in found]
    summary = None
    if getattr(engine, "link", False):
        steps = build_steps(lines)
        if steps:
            from ..project.summary import build_summary

            summary = build_summary(steps)
    return ReadResult(found, None, [Source(text, comments(ctx.kind))], summary)


_STEP = re.compile(r"(?i)^\s*[A-Z]+\s")


# A RUN step that is one `export NAME=value` and nothing else (`RUN export CUDA_HOME="/usr/local/cuda"`)
_LONE_EXPORT = re.compile(r"(?i)^\s*RUN\s+export\s+(?P<name>[A-Za-z_]\w*)=(?:\"[^\"]*\"|'[^']*'|[^\s;&|\\]*)\s*$")


def guard_lone_exports(found: list, lines: list[str]) -> list:
    """unread-shell-variable for images: each RUN step runs in a shell of its own, so a step that only exports a
    variable (`RUN export CUDA_HOME="/usr/local/cuda"`) sets it for nothing: the next step starts without it (an
    image sets a variable for later steps with ENV). Its findings are guarded; an export followed by a command in
    the same step (`RUN export CUDA_HOME=... && python setup.py install`) keeps them."""
    return [replace(f, guarded=True, guarded_by="unread-shell-variable")
            if not f.guarded and 0 < f.line <= len(lines) and _LONE_EXPORT.match(lines[f.line - 1]) else f
            for f in found]


def run_steps(lines: list[str]) -> dict:
    """line -> first line of the instruction it belongs to (`\\` continuations, comment lines inside included)."""
    out: dict = {}
    start = 0
    cont = False
    for n, ln in enumerate(lines, 1):
        if not cont and (_STEP.match(ln) or not start):
            start = n
        out[n] = start
        body = ln.rstrip()
        cont = body.endswith("\\") or (cont and (not body or body.lstrip().startswith("#")))
    return out


def one_build_per_step(found: list, lines: list[str], engine) -> list:
    """One finding per thing: in one RUN step that installs a CUDA-only package from source (a cuda-library
    finding: `git clone https://github.com/NVIDIA/apex`), the flags that build its kernels (custom-cuda-kernel
    line findings: `--cuda_ext`, `FORCE_CUDA=1`, `-gencode`) and the install of the cloned directory
    (`cd flash-attention && pip install .`) are how that package is built, so they are places of the package's
    finding, not items of their own. Other steps, and Python findings, are left alone (lines.one_build_per_command
    is the same for the commands of a shell script)."""
    return fold_builds(found, lambda: run_steps(lines))


def _is_variant(ctx, values: dict) -> bool:
    from .ci import names_accelerator
    from .deps import image_siblings

    labels = tuple(v.lower() for v in values.get("other-accelerator-labels", ()))
    if ctx.path is None or not labels or not names_accelerator(ctx.rel, labels):
        return False
    neutral = labels + tuple(v.lower() for v in values.get("image-variant-labels", ()))
    siblings = image_siblings(ctx.path, ctx.rel)
    me = "/".join(ctx.rel.split("/")[-2:]) if "/" in ctx.rel else ctx.rel
    stem = _stem(me, neutral)
    return any(not names_accelerator(other, labels) and _stem(other, neutral) == stem for other in siblings)


def _stem(path: str, neutral) -> tuple:
    """The path's tokens without the accelerator / variant labels: `peft-gpu/Dockerfile` -> (peft, dockerfile)."""
    import fnmatch

    tokens = [t for t in re.split(r"[^a-z0-9]+", path.lower()) if t]
    return tuple(t for t in tokens if not any(fnmatch.fnmatchcase(t, p) for p in neutral))


_FROM = re.compile(r"(?i)^\s*FROM\s")


def _base_image_lines(lines: list[str]) -> set:
    """The FROM lines and the ARG lines before the first FROM (they can only parameterise a FROM)."""
    out: set = set()
    seen_from = False
    for n, ln in enumerate(lines, 1):
        if _FROM.match(ln):
            seen_from = True
            out.add(n)
        elif not seen_from:
            decl = _DECL.match(ln)
            if decl is not None and decl.group("kw").upper() == "ARG":
                out.add(n)
    return out


_NAME_PART = re.compile(r"[A-Za-z0-9._-]*")


def _deps(expanded, alts, raw_lines) -> list:
    """`pip install` / `uv pip install` / `conda install` requirements of each expanded RUN command; a version
    or a whole requirement taken from a variable is reported where the variable was set."""
    out = []
    phys = [t for t, _ in expanded]
    flat_pos = [p for _, p in expanded]
    raw_logical = rq.logical_lines(raw_lines)
    for logical, lpos in rq.logical_lines(phys):
        raw, _ = next(raw_logical, ("", []))
        if not logical or logical.lstrip().startswith("#"):
            continue
        # positions of the logical line, mapped through each physical line's expansion
        rich = []
        for line, col in lpos:
            row = flat_pos[line - 1]
            rich.append(row[col] if col < len(row) else (line, col, False))
        body = quiet_echo(logical)
        plain = [(p[0], p[1]) for p in rich]
        index: dict = {}
        for k, p in enumerate(plain):
            index.setdefault(p, k)
        for d in rq.pip_deps(body, plain):
            start = index.get((d.line, d.column - 1))
            if start is not None:
                span = rich[start: start + max(1, d.end_column - d.column)]
                subst = [p for p in span if p[2]]
                if subst:
                    line = subst[0][0]
                    cols = [p[1] for p in subst if p[0] == line]
                    where = (line, min(cols) + 1, max(cols) + 2)
                    name_part = _NAME_PART.match(d.raw.lstrip("\"'"))
                    named = name_part.end() if name_part else 0
                    if any(p[2] for p in span[:named]):
                        d.line, d.column, d.end_column = where
                    else:
                        # the package is written here, only its version comes from a variable: a package rule
                        # (onnxruntime-gpu) is about this line, a version rule about the ARG that sets the version
                        d.version_at = where
            out.append(d)
        if not rq._PIP_CMD.search(logical):
            continue
        for m in re.finditer(r"\binstall\b[^;&|]*?\$\{?([A-Za-z_]\w*)\}?", raw):
            # `pip install $WHEEL_URL` after `if ...; then WHEEL_URL=...; else WHEEL_URL=...; fi`: every branch
            for value, vpos in alts.get(m.group(1), []):
                if vpos and ("://" in value or value.endswith(".whl")):
                    d = rq.dep_from_string(value, vpos[0][0], vpos[0][1] + 1)
                    if d is not None:
                        d.end_column = vpos[-1][1] + 2
                        out.append(d)
    return out


def _python_args(defs: dict, refs: dict) -> list:
    """`ARG PYTHON_VERSION=3.10` used elsewhere in the file -> a Python requirement at the ARG."""
    out = []
    for name, (line, col, value) in defs.items():
        m = _PY_VALUE.match(value.strip())
        if not (_PY_VAR.match(name) and m):
            continue
        if not _used(name, refs, line):
            continue
        req = rq.pyreq_from(f"=={m.group(1)}.*", line, col, end_column=col + len(value))
        if req is not None:
            req.raw = f"{name}={value}"
            out.append(req)
    return out


_REF = re.compile(r"\$\{?([A-Za-z_]\w*)")


def _references(lines: list[str]) -> dict:
    """Variable name -> lines that reference it ($X, ${X}), comments aside: one pass over the file."""
    refs: dict = {}
    for k, ln in enumerate(lines, 1):
        if not ln.lstrip().startswith("#"):
            for m in _REF.finditer(ln):
                refs.setdefault(m.group(1), set()).add(k)
    return refs


def _used(name: str, refs: dict, line: int) -> bool:
    return bool(refs.get(name, set()) - {line})


def _torch_args(defs: dict, refs: dict, images: frozenset | set = frozenset()) -> list:
    """`ARG PYTORCH_VERSION=2.1.2` used elsewhere in the file -> `torch==2.1.2` declared at the ARG. An ARG used only
    in FROM lines reported already (`FROM pytorch/pytorch:${PYTORCH}-cuda${CUDA}-devel`, a CUDA base image: `images`)
    picks the tag of that image: replacing the image is the one edit, so the version is no second item."""
    out = []
    for name, (line, col, value) in defs.items():
        used = refs.get(name, set()) - {line}
        if used and used <= images:
            continue
        if _TORCH_VAR.match(name) and _TORCH_VALUE.match(value.strip()) and _used(name, refs, line):
            d = rq.dep_from_string(f"torch=={value.strip()}", line, col)
            if d is not None:
                d.raw, d.end_column = f"{name}={value}", col + len(value)
                out.append(d)
    return out


# ---------------------------------------------------------------- steps that build the project's own code
_INSTR = re.compile(r"(?i)^\s*(?P<kw>COPY|ADD|WORKDIR|RUN|FROM)\s+(?P<rest>.*)$")
_SETUP_BUILD = re.compile(r"\bpython[\d.]*\s+(?:-\S+\s+)*setup\.py\s+(?:[\w-]+\s+)*?"
                          r"(?:install|develop|build_ext|build|bdist_wheel)\b")
_PIP_LOCAL = re.compile(r"\b(?:pip[\d.]*|-m\s+pip|uv\s+pip)\s+install\s+(?:-\S+\s+)*?(?:-e\s+|--editable\s+)?"
                        r"(?P<path>\.{1,2}(?:/[^\s;&|\[]*)?|/[^\s;&|\[]+)(?:\[[^\]]*\])?(?=\s|$|;|&|\|)")
_MAX_STEPS = 50


def _join(base: str, path: str) -> str:
    import posixpath

    return posixpath.normpath(path if path.startswith("/") else posixpath.join(base or "/", path))


def build_steps(lines: list[str]) -> list:
    """[[line, col, end_col, context path, command]] for the RUN steps that build Python code copied from the
    build context (`COPY csrc/ /src` + `WORKDIR /src` + `RUN python setup.py install`, `RUN pip install .`):
    the image directory is followed back through COPY/ADD to the path in the build context. A step whose
    directory did not come from a COPY (a cloned repository, a downloaded archive) is not recorded."""
    import posixpath

    out: list = []
    workdir = "/"
    copies: list = []  # (image path, context path)
    for text, pos in rq.logical_lines(lines):
        m = _INSTR.match(text)
        if m is None or not pos:
            continue
        kw, rest = m.group("kw").upper(), m.group("rest").strip()
        if kw == "FROM":
            workdir, copies = "/", []
        elif kw == "WORKDIR":
            workdir = _join(workdir, rest.strip("\"'"))
        elif kw in ("COPY", "ADD"):
            if re.search(r"(?i)--from[= ]", rest):
                continue  # copied from another stage or image, not from the build context
            parts = [p for p in rest.split() if not p.startswith("--") and "://" not in p]
            if len(parts) >= 2 and not rest.startswith("["):
                dest = _join(workdir, parts[-1])
                for src in parts[:-1]:
                    src = posixpath.normpath(src.lstrip("/")) if src not in (".", "./") else "."
                    # `COPY dir/ /dst` puts dir's content in /dst; `COPY a b /dst/` puts each under /dst
                    target = dest if len(parts) == 2 else _join(dest, posixpath.basename(src))
                    copies.append((target, src))
        elif kw == "RUN" and len(out) < _MAX_STEPS:
            cwd = workdir
            for cmd in re.split(r"&&|;|\|\|", rest):
                cd = re.match(r"\s*cd\s+(\S+)", cmd)
                if cd:
                    cwd = _join(cwd, cd.group(1).strip("\"'"))
                    continue
                target = None
                if _SETUP_BUILD.search(cmd):
                    target = cwd
                else:
                    pm = _PIP_LOCAL.search(cmd)
                    if pm:
                        target = _join(cwd, pm.group("path"))
                if target is None:
                    continue
                for dest, src in reversed(copies):
                    if target == dest or target.startswith(dest.rstrip("/") + "/"):
                        inner = target[len(dest):].lstrip("/")
                        path = posixpath.normpath(posixpath.join(src, inner)) if inner else src
                        line, col = pos[0]
                        first = lines[line - 1] if 0 < line <= len(lines) else ""
                        out.append([line, col + 1, len(first.rstrip()) + 1, path, cmd.strip()[:200]])
                        break
    return out
