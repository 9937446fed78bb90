"""The Python a Dockerfile gets from its distribution: `FROM ubuntu:22.04` + `apt-get install python3-pip` is 3.10.

An image that starts from a plain distribution (or from an image whose tag names one, such as
`nvidia/cuda:12.1.0-devel-ubuntu22.04`) and installs `python3` or any `python3-*` package with apt runs the
distribution's default python3, whose version is fixed per release ([context.values] distro-python3). That version
is the image's Python requirement, reported at the first apt package that pulls it in. An explicit
`python3.11` package names its own version. A stage that also installs another Python (deadsnakes, conda, pyenv,
uv, files copied from a python image: [context.values] distro-python3-providers) says nothing about the
interpreter that runs the code, and neither does a release missing from the table (`ubuntu:latest`); a stage that
chooses its Python elsewhere (`python3.10 -m venv`, `ARG PYTHON_VERSION=3.10`) is reported there only. On an image
of no known release (`someone/tensorrt7:0.0.1`) only an explicit `python3.7-dev` package says which Python runs,
unless the image's name says it brings its own (python, conda, pytorch images).
"""
from __future__ import annotations

import re

from .. import requirements as rq

_FROM = re.compile(r"(?i)^\s*FROM\s+(?:--platform=\S+\s+)?(?P<image>\S+)")
_APT = re.compile(r"(?<![\w-])apt(?:-get)?\s+(?:-\S+\s+)*install\b(?P<args>[^;&|]*)")
_PKG = re.compile(r"(?<![^\s\"'])(?P<name>python3(?:\.(?P<minor>\d{1,2}))?(?:-[\w.+-]+)?)(?:=\S*)?(?=[\s\"']|$)")
_RELEASE = re.compile(r"(?i)(ubuntu|debian)[-_]?(\d{2}\.\d{2}|\d{1,2})(?![\d.])")


def _table(values: dict) -> dict:
    out = {}
    for entry in values.get("distro-python3", ()):
        key, _, version = str(entry).partition("=")
        if key and version:
            out[key.strip().lower()] = version.strip()
    return out


def release_of(image: str, images: tuple) -> str | None:
    """`ubuntu:22.04` -> ubuntu22.04, `debian:bookworm-slim` -> bookworm, `nvidia/cuda:12.1-devel-ubuntu22.04` ->
    ubuntu22.04; None for an image that is not a plain distribution or names no release (a tag word such as
    `latest` is returned as written and is in no table)."""
    name, _, tag = image.lower().rpartition(":") if ":" in image.rsplit("/", 1)[-1] else (image.lower(), "", "")
    base = name.rsplit("/", 1)[-1]
    if base not in images:
        return None
    if base in ("ubuntu", "debian"):
        head = re.split(r"[-_]", tag, maxsplit=1)[0] if tag else ""
        return f"{base}{head}" if re.fullmatch(r"\d[\d.]*", head) else head or None
    m = _RELEASE.search(tag)
    return f"{m.group(1).lower()}{m.group(2)}" if m else None


def distro_pyreqs(lines: list[str], expanded, values: dict, chosen: tuple = ()) -> list:
    """Python requirements of the stages that take python3 from apt (one per stage, at its first python3 package).
    `chosen`: lines where the file already chooses a Python (`python3.10 -m venv`, `ARG PYTHON_VERSION`); a stage
    holding one is left to that finding."""
    table = _table(values)
    images = tuple(v.lower() for v in values.get("distro-python3-images", ()))
    providers = tuple(v.lower() for v in values.get("distro-python3-providers", ()))
    if not table or not images:
        return []
    stages: list = []  # [release, first line, last line]
    for n, (text, _) in enumerate(expanded, 1):
        m = _FROM.match(rq.strip_comment(text))
        if m:
            if stages:
                stages[-1][2] = n - 1
            stages.append([release_of(m.group("image"), images), n, len(lines), m.group("image").lower()])
    out = []
    for release, first, last, image in stages:
        version = table.get(release or "")
        if any(first <= n <= last for n in chosen):
            continue
        if version is None:
            # An image of unknown release (`someone/tensorrt7:0.0.1`, or a release the table lacks: `latest`)
            # still runs the Python an explicit apt package names (`apt-get install python3.7-dev python3-pip`),
            # unless the image brings its own
            if not _own_python(image):
                req = _stage_req(lines[first - 1: last], first, "", "", explicit_only=True, run_by=_provided(
                    lines[first - 1: last], providers))
                if req is not None:
                    out.append(req)
            continue
        body = _provided(lines[first - 1: last], providers)
        # Another Python in the stage (deadsnakes, conda, pyenv) may be the one that runs the code; an explicit
        # `python3.10` package still is when the stage then runs that very interpreter (`python3.10 -m pip`,
        # `ENTRYPOINT ["python3.10"]`): deadsnakes provides exactly such packages.
        req = _stage_req(lines[first - 1: last], first, release, version,
                         run_by=body)
        if req is not None:
            out.append(req)
    return out


# Words of an image name that bring a Python of their own (python:3.12, continuumio/miniconda3, pytorch/pytorch)
_OWN_PYTHON = ("python", "conda", "miniforge", "mambaforge", "micromamba", "pytorch", "pypy")


def _own_python(image: str) -> bool:
    name = image.split(":", 1)[0].rsplit("/", 1)[-1]
    return any(w in name for w in _OWN_PYTHON)


def _provided(lines: list[str], providers: tuple) -> str | None:
    """The stage's text when it also installs another Python (deadsnakes, conda, pyenv ...), else None."""
    body = "\n".join(rq.strip_comment(ln) for ln in lines).lower()
    return body if any(p in body for p in providers) else None


def _runs(body: str, name: str, installs: int) -> bool:
    """`name` (python3.10) occurs in the stage's text more often than in its apt install commands: it is run."""
    return len(re.findall(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", body)) > installs


def _stage_req(lines: list[str], offset: int, release: str, default: str, run_by: str | None = None,
               explicit_only: bool = False):
    """The stage's first python3 package; an explicit `python3.11` wins over the default python3. `run_by`: the
    stage's text when it also installs another Python; then only an explicit package the stage runs counts."""
    found = []  # (explicit?, line, column, end, package, version)
    for text, pos in rq.logical_lines(lines):
        if not text or text.lstrip().startswith("#"):
            continue
        for apt in _APT.finditer(rq.strip_comment(text)):
            for pkg in _PKG.finditer(apt.group("args")):
                at = apt.start("args") + pkg.start("name")
                if at >= len(pos):
                    continue
                line, col = pos[at]
                minor = pkg.group("minor")
                found.append((minor is not None, line + offset - 1, col + 1, col + 1 + len(pkg.group("name")),
                              pkg.group("name"), f"3.{minor}" if minor else default))
    if explicit_only:
        found = [f for f in found if f[0]]
    if run_by is not None:
        found = [f for f in found if f[0] and _runs(run_by, f[4], sum(1 for g in found if g[4] == f[4]))]
    if not found:
        return None
    explicit, line, col, end, name, version = next((f for f in found if f[0]), found[0])
    req = rq.pyreq_from(f"=={version}.*", line, col, end_column=end)
    if req is not None:
        req.raw = f"{name} (" + ("" if explicit else f"{release} apt: ") + f"Python {version})"
    return req
