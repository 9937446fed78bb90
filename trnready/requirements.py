"""Dependency declarations -> `Dep` / `PyReq` records with exact positions, and the requirement matchers.

Every manifest format is read statically: requirements/constraints files, pyproject.toml ([project],
Poetry, PDM, uv, PEP 735 groups), setup.py (from the syntax tree, never executed), setup.cfg, conda
environment files, Pipfiles, and `pip install` commands inside shell lines (Dockerfiles, scripts, YAML,
notebook `!pip` / `%pip` escapes). Requirement strings are parsed with `packaging`; lines that are not
requirements (paths, URLs, garbage) are skipped.
"""
from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import dataclass, field, replace

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version
from .astwalk import walk
from .setup_functions import module_functions, returned


@dataclass
class Dep:
    """One declared dependency and where its text sits (1-based line, 1-based columns)."""

    name: str  # PEP 503-normalised
    raw: str  # the requirement as written
    alternatives: list  # SpecifierSets (Poetry `||` gives several); [] when unconstrained
    versions: list  # version strings named in the specifiers
    line: int
    column: int
    end_column: int
    extra: str = ""  # the optional-dependency group (extra) that declares it; "" for the main requirements
    # the strings the `if` arm of a setup.py helper returning it compares with (`platform == "rocm"`), space-separated
    platform: str = ""
    # (line, column, end column) of a version written through a variable while the name is literal
    # (`onnxruntime-gpu==${ORT_VERSION}` in a Dockerfile): version rules report there, the others at the name
    version_at: tuple = ()


@dataclass
class PyReq:
    """A Python version requirement (requires-python, python_requires, Poetry python, conda python=...)."""

    raw: str
    alternatives: list
    line: int
    column: int
    end_column: int


@dataclass
class Manifest:
    deps: list = field(default_factory=list)
    pyreqs: list = field(default_factory=list)


# ---------------------------------------------------------------- version logic

def norm(name: str) -> str:
    return canonicalize_name(name)


def name_matches(pattern: str, name: str) -> bool:
    pat = re.sub(r"[-_.]+", "-", pattern.lower())
    return fnmatch.fnmatchcase(name, pat)


def _bump(release) -> Version:
    parts = list(release)
    parts[-1] += 1
    return Version(".".join(str(p) for p in parts))


def _ceiling(spec: SpecifierSet):
    """(version, inclusive) of the highest version the set can resolve to, or None when unbounded above."""
    best = None
    for sp in spec:
        op, v = sp.operator, sp.version
        try:
            if op in ("==", "===") and v.endswith(".*"):
                cand = (_bump(Version(v[:-2]).release), False)
            elif op in ("==", "===", "<="):
                cand = (Version(v), True)
            elif op == "<":
                cand = (Version(v), False)
            elif op == "~=":
                rel = Version(v).release
                cand = (_bump(rel[:-1] if len(rel) > 1 else rel), False)
            else:
                continue
        except InvalidVersion:
            continue
        if best is None or cand[0] < best[0] or (cand[0] == best[0] and not cand[1]):
            best = cand
    return best


def ceiling_in(spec: SpecifierSet, target: SpecifierSet) -> bool:
    c = _ceiling(spec)
    if c is None:
        return False
    v, inclusive = c
    if target.contains(v, prereleases=True):
        return True
    if not inclusive:  # "< v": everything just below v is in the target when the target's own cap is >= v
        return any(sp.operator in ("<", "<=") and Version(sp.version) >= v for sp in target
                   if not sp.version.endswith(".*"))
    return False


def dep_versions(spec: SpecifierSet) -> list:
    return [sp.version[:-2] if sp.version.endswith(".*") else sp.version for sp in spec]


def python_excludes_all(req: PyReq, minors) -> bool:
    """True when no alternative admits any patch release of the given minor versions."""
    probes = [Version(f"{m}.{p}") for m in minors for p in range(0, 30)]
    for spec in req.alternatives:
        if any(spec.contains(v, prereleases=True) for v in probes):
            return False
    return bool(req.alternatives)


# ---------------------------------------------------------------- parsing helpers

def _spec(text: str):
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        return None


# Linux x86_64 hosts with CPython 3.12-3.14: the environments torch-neuronx wheels exist for. A requirement
# whose environment marker is false for all of them is never installed on Trainium.
_TARGET_ENVS = [{"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
                 "platform_machine": "x86_64", "implementation_name": "cpython",
                 "platform_python_implementation": "CPython", "python_version": v,
                 "python_full_version": v + ".0", "implementation_version": v + ".0"}
                for v in ("3.12", "3.13", "3.14")]


def marker_applies(marker) -> bool:
    """False only when the marker excludes every Trainium target environment (extras are left alone)."""
    if marker is None or "extra" in str(marker):
        return True
    try:
        return any(marker.evaluate(env) for env in _TARGET_ENVS)
    except Exception:  # an odd marker never hides a dependency
        return True


# GitHub repositories whose name is not the distribution they build (`pip install git+https://...`).
_REPO_DISTS = {
    "dao-ailab/flash-attention": "flash-attn", "state-spaces/mamba": "mamba-ssm",
    "nvidia/transformerengine": "transformer-engine", "autogptq/autogptq": "auto-gptq",
    "panqiwei/autogptq": "auto-gptq", "casper-hansen/autoawq": "autoawq",
    "flashinfer-ai/flashinfer": "flashinfer-python",
    "openai/triton": "triton", "triton-lang/triton": "triton", "pytorch/xla": "torch-xla",
    "pytorch/tensorrt": "torch-tensorrt", "nvidia/tensorrt-model-optimizer": "nvidia-modelopt",
    "nvidia/dali": "nvidia-dali-cuda120", "timdettmers/bitsandbytes": "bitsandbytes",
    "nvlabs/tiny-cuda-nn": "tinycudann",  # `#subdirectory=bindings/torch`: the PyTorch binding's distribution
}
_WHEEL = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9_.]*?)-(?P<ver>\d[^-]*)(?:-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$")
_SDIST = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9_.\-]*?)-(?P<ver>\d[\w.+!]*)\.(?:tar\.gz|tar\.bz2|zip|tgz)$")
_VCS = re.compile(r"^(?:git\+|hg\+)?(?:https?|ssh|git)://(?:[^@/]+@)?(?:www\.)?(?:github|gitlab)\.com[/:]"
                  r"(?P<repo>[\w.\-]+/[\w.\-]+?)(?:\.git)?(?:/|@|#|$)")


def dep_from_url(s: str, line: int, column: int, end_column: int | None = None) -> Dep | None:
    """A wheel / sdist URL or path, or a VCS URL (`git+https://github.com/org/repo.git@tag#egg=name`) -> Dep
    named after the distribution it installs (None when the name cannot be told)."""
    from urllib.parse import unquote

    s2 = unquote(s.strip().strip("\"'"))
    name = version = None
    egg = re.search(r"[#&]egg=([A-Za-z0-9_.\-]+)", s2)
    base = s2.split("#")[0].split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    m = _WHEEL.match(base) or _SDIST.match(base)
    if egg:
        name = egg.group(1)
    elif m:
        name, version = m.group("name"), m.group("ver")
    else:
        v = _VCS.match(s2)
        if v and (s2.startswith(("git+", "hg+")) or s2.endswith(".git") or "@" in s2.split("://", 1)[1]):
            repo = v.group("repo").lower()
            name = _REPO_DISTS.get(repo, repo.rsplit("/", 1)[-1])
    if not name or "$" in name:
        return None
    specs = [sp for sp in [_spec(f"=={version}")] if sp is not None] if version else []
    return Dep(name=norm(name), raw=s.strip(), alternatives=specs, versions=[version] if version else [],
               line=line, column=column, end_column=end_column if end_column is not None else column + len(s))


def _is_url_or_archive(s: str) -> bool:
    low = s.lower().split("#")[0].split("?")[0]
    return "://" in s.split("@")[0] or low.endswith((".whl", ".tar.gz", ".tar.bz2", ".tgz", ".zip"))


def dep_from_string(s: str, line: int, column: int, end_column: int | None = None) -> Dep | None:
    """A PEP 508 string -> Dep (None when it is not a requirement: local paths, options, garbage). URLs and
    archive paths name their distribution (dep_from_url); a marker false on Linux/CPython 3.12-3.14 -> None."""
    s2 = s.strip()
    if s2 and not s2.startswith("-") and _is_url_or_archive(s2) and " @ " not in s2 and "@ " not in s2:
        return dep_from_url(s2, line, column, end_column)
    if not s2 or s2.startswith(("-", ".", "/", "~")) or "://" in s2.split("@")[0]:
        return None
    try:
        req = Requirement(s2)
    except InvalidRequirement:
        return None
    if not marker_applies(req.marker):
        return None
    spec = req.specifier
    return Dep(name=norm(req.name), raw=s2, alternatives=[spec] if str(spec) else [],
               versions=dep_versions(spec), line=line, column=column,
               end_column=end_column if end_column is not None else column + len(s))


_CARET = re.compile(r"^\^\s*(\d+(?:\.\d+)*)$")
_TILDE = re.compile(r"^~\s*(\d+(?:\.\d+)*)$")


def poetry_specs(constraint: str) -> list:
    """A Poetry constraint (^1.2, ~1.2, 1.2.*, >=1,<2, a || b, *) -> list of SpecifierSets."""
    out = []
    for alt in constraint.split("||"):
        parts = []
        for piece in re.split(r"[,\s]+(?=[<>=!~^\d*])", alt.strip()):
            piece = piece.strip().rstrip(",")
            if not piece or piece == "*":
                continue
            m = _CARET.match(piece)
            if m:
                rel = [int(x) for x in m.group(1).split(".")]
                i = next((k for k, x in enumerate(rel) if x != 0), len(rel) - 1)
                upper = rel[: i + 1]
                parts.append(f">={m.group(1)},<{_bump(upper)}")
                continue
            m = _TILDE.match(piece)
            if m:
                rel = [int(x) for x in m.group(1).split(".")]
                upper = rel[:2] if len(rel) >= 2 else rel[:1]
                parts.append(f">={m.group(1)},<{_bump(upper)}")
                continue
            if re.match(r"^\d", piece):
                piece = "==" + piece
            parts.append(piece)
        if not parts:
            return []
        spec = _spec(",".join(parts))
        if spec is not None:
            out.append(spec)
    return out


# conda package names whose PyPI distribution is called differently (`torchtriton` is the pytorch channel's
# build of Triton, installed with its CUDA builds of PyTorch)
_CONDA_NAMES = {"pytorch": "torch", "pytorch-gpu": "torch", "pytorch-cpu": "torch", "torchtriton": "triton"}


def conda_dep(spec: str, line: int, column: int) -> Dep | None:
    """A conda match spec (`python=3.10`, `pytorch::pytorch-cuda=12.1`, `numpy>=1.2`) -> Dep."""
    s = spec.strip()
    m = re.match(r"^(?:[\w.\-/]+::)?([A-Za-z0-9_.\-]+)\s*(.*)$", s)
    if not m:
        return None
    name, rest = m.group(1), m.group(2).strip()
    name = _CONDA_NAMES.get(name.lower(), name)
    # `python>=3.8, < 3.10`: spaces around a comma or after an operator belong to one version spec (a
    # space elsewhere separates the version from a build string)
    rest = re.sub(r"([<>=!~]=?)\s+(?=\d)", r"\1", re.sub(r"\s*,\s*", ",", rest))
    rest = rest.split()[0] if rest else ""
    specs: list = []
    if rest:
        if (rest.startswith("=") and not rest.startswith("==")) or rest[0].isdigit():
            ver = rest.lstrip("=").split("=")[0]  # name=ver=build, `name ver build`
            text = f"=={ver}" if ver.endswith("*") else f"=={ver}.*"
            text = text.replace("*.*", "*")
        else:
            text = rest
        sp = _spec(text.replace("*.*", "*"))
        if sp is not None:
            specs = [sp]
    vers = [v for sp in specs for v in dep_versions(sp)]
    return Dep(name=norm(name), raw=s, alternatives=specs, versions=vers, line=line, column=column,
               end_column=column + len(s))


def pyreq_from(spec_text: str, line: int, column: int, poetry: bool = False, end_column: int | None = None):
    alts = poetry_specs(spec_text) if poetry else [s for s in [_spec(spec_text.strip())] if s is not None]
    if not alts:
        return None
    return PyReq(raw=spec_text, alternatives=alts, line=line, column=column,
                 end_column=end_column if end_column is not None else column + len(spec_text))


# ---------------------------------------------------------------- requirements.txt

def logical_lines(lines: list[str], comment_lines: bool = True):
    """Join backslash-continued physical lines. Yields (text, positions) where positions[i] is the
    (1-based line, 0-based column) of text[i]."""
    buf, pos = "", []  # type: str, list[tuple[int, int]]
    for n, ln in enumerate(lines, 1):
        if comment_lines and buf and ln.lstrip().startswith("#"):
            continue  # a comment inside a continued command (Dockerfile RUN)
        body = ln.rstrip("\r\n")
        cont = body.rstrip().endswith("\\")
        if cont:
            body = body.rstrip()[:-1]
        buf += body + " "
        pos.extend((n, c) for c in range(len(body) + 1))
        if not cont:
            yield buf, pos
            buf, pos = "", []
    if buf:
        yield buf, pos


def strip_comment(text: str) -> str:
    """Cut a `#` comment: a whole-line comment, or `#` after whitespace."""
    if text.lstrip().startswith("#"):
        return ""
    m = re.search(r"\s#", text)
    return text[: m.start()] if m else text


# `conda list --export` output (`name=version=build` per line, `conda create --file` reads it back), often saved as
# `requirements.txt`; pip cannot read it, so its lines are conda specs, not pip requirements.
_CONDA_LIST_LINE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*=[^=\s<>!~,]+(?:=[^=\s<>!~,]+)?$")


# A package of an explicit conda spec (`conda list --explicit`, headed `@EXPLICIT`): the URL of its archive,
# `https://repo.anaconda.com/pkgs/main/linux-64/cudatoolkit-10.1.243-h6bb024c_0.conda` (`name-version-build`).
_EXPLICIT_URL = re.compile(r"^\S+/(?P<name>[A-Za-z0-9_][A-Za-z0-9_.\-]*)-(?P<version>[^-/\s]+)-(?P<build>[^-/\s]+)"
                           r"\.(?:conda|tar\.bz2)(?:#\S*)?$")


def is_conda_list(text: str) -> bool:
    """Most requirement lines are `name=version[=build]` (single `=`), or the file says it is a conda spec file
    (an explicit one, `@EXPLICIT`, lists the packages' archive URLs)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return False
    if lines[0] == "@EXPLICIT":
        return True
    conda = sum(1 for ln in lines if _CONDA_LIST_LINE.match(ln))
    return conda * 2 > len(lines) or conda > 0 and re.search(r"^#.*conda create\b.*--file\b", text, re.M) is not None


def parse_conda_list(text: str) -> Manifest:
    """The specs of a `conda list --export` file: one `name=version=build` per line, `python=...` the interpreter;
    of a `conda list --explicit` file, one archive URL per line."""
    man = Manifest()
    for n, ln in enumerate(text.splitlines(), 1):
        body = strip_comment(ln).strip()
        url = _EXPLICIT_URL.match(body) if "/" in body else None
        if url is not None:
            # reported at the package's file name in the URL, read as the spec `name=version=build`
            _add_conda_spec(man, f"{url['name']}={url['version']}={url['build']}", n,
                            ln.find(body) + url.start("name") + 1)
            continue
        if not _CONDA_LIST_LINE.match(body):
            continue
        _add_conda_spec(man, body, n, ln.find(body) + 1)
    return man


def _add_conda_spec(man: Manifest, spec: str, line: int, column: int) -> None:
    """A conda spec of an environment or an exported list: `python=...` is the interpreter requirement, anything
    else a dependency."""
    d = conda_dep(spec, line, column)
    if d is None:
        return
    if d.name != "python":
        man.deps.append(d)
    elif d.alternatives:
        man.pyreqs.append(PyReq(raw=spec, alternatives=d.alternatives, line=line, column=column,
                                end_column=column + len(spec)))


def parse_requirements(text: str):
    """-> (deps, includes [(line, option, target)], option_text) for a requirements/constraints file."""
    deps, includes = [], []
    for logical, pos in logical_lines(text.splitlines(), comment_lines=False):
        body = strip_comment(logical)
        stripped = body.strip()
        if not stripped:
            continue
        lead = len(body) - len(body.lstrip())
        line = pos[lead][0] if lead < len(pos) else pos[0][0]
        if stripped.startswith("-"):
            m = re.match(r"^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(\S+)", stripped)
            if m:
                includes.append((line, m.group(1), m.group(2)))
            m = re.match(r"^(?:-e|--editable)(?:\s*=\s*|\s+)(\S+)", stripped)
            if m and "://" in m.group(1):
                vpos = lead + m.start(1)
                d = dep_from_url(m.group(1), line, pos[vpos][1] + 1 if vpos < len(pos) else 1)
                if d is not None:
                    deps.append(d)
            continue
        # `pkg==1 --hash=sha256:...` and other per-requirement options
        req_text = re.split(r"\s+--?[a-z]", stripped)[0].strip()
        col = pos[lead][1] + 1 if lead < len(pos) else 1
        d = dep_from_string(req_text, line, col)
        if d is not None:
            deps.append(d)
    return deps, includes


# ---------------------------------------------------------------- pip install inside shell text

# a tool called by a quoted path counts too (`"$WORKING_DIR/miniconda/bin/conda" install --yes cudatoolkit=11.8`)
_PIP_CMD = re.compile(r"(?:(?:\b(?:pip3?(?:\.\d+)?|uv\s+pip|python[\d.]*\s+-m\s+pip|micromamba|mamba|conda)[\"']?"
                      r"|\{sys\.executable\}\s+-m\s+pip)"
                      r"\s+install|\buv\s+add|\bpoetry\s+add)\b")
_TOKEN = re.compile(r"(?P<sep>&&|\|\|?|;|\)|`)|(?P<tok>\"[^\"]*\"|'[^']*'|[^\s;&|)`]+)")
_PIP_VALUE_OPTS = {"-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
                   "-f", "--find-links", "-e", "--editable", "-t", "--target", "--prefix", "--root",
                   "--platform", "--python-version", "--implementation", "--abi", "--only-binary",
                   "--no-binary", "--trusted-host", "--progress-bar", "--cache-dir", "--src",
                   "--upgrade-strategy", "--log", "--proxy", "--timeout", "--retries", "-C",
                   "--config-settings", "--global-option", "-n", "--name", "-p", "--channel",
                   "--group", "-G", "--index", "--default-index", "--source", "--python", "--extra"}


def pip_deps(text: str, positions=None, line: int = 1) -> list:
    """Requirements named by `pip install ...` (and uv/poetry/conda equivalents) in one logical line."""
    out = []
    commands = list(_PIP_CMD.finditer(text))
    for n, m in enumerate(commands):
        is_conda = m.group(0).split()[0].strip("\"'") in ("conda", "mamba", "micromamba")
        skip_next: bool | str = False  # "editable": the next token is an -e target
        # A command's arguments end where the next install command starts: reading to the end of the
        # line for each of thousands of `pip install` on one line was quadratic.
        end = commands[n + 1].start() if n + 1 < len(commands) else len(text)
        for t in _TOKEN.finditer(text, m.end(), end):
            if t.group("sep"):
                break
            tok = t.group("tok")
            if tok.startswith("#"):
                break  # a trailing comment
            editable = skip_next == "editable"
            if skip_next and not editable:
                skip_next = False
                continue
            skip_next = False
            if tok.startswith("-"):
                if "=" not in tok and tok in _PIP_VALUE_OPTS:
                    skip_next = "editable" if tok in ("-e", "--editable") and not is_conda else True
                continue
            start = t.start()
            if tok[:1] in "\"'":
                tok, start = tok[1:-1], start + 1
            if "$" in tok:
                continue
            ln, col = positions[start] if positions else (line, start)
            if editable:  # `-e git+https://...#egg=x`: a VCS URL names its distribution, a local path does not
                d = dep_from_url(tok, ln, col + 1) if "://" in tok else None
            else:
                d = conda_dep(tok, ln, col + 1) if is_conda else dep_from_string(tok, ln, col + 1)
            if d is not None:
                d.end_column = col + 1 + len(tok)
                out.append(d)
    return out


# ---------------------------------------------------------------- TOML manifests

class TomlLines:
    """Finds the line of a key or a string inside a TOML table (tomllib keeps no positions)."""

    _HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.taken: set = set()  # positions of strings already attributed to a requirement
        self._index: dict = {}
        self._cursor: dict = {}
        self._keys: dict = {}
        self.tables: list[tuple[str, int, int]] = []  # (name, first line index, end index)
        current, start = "", 0
        for i, ln in enumerate(self.lines):
            m = self._HEADER.match(ln)
            if m:
                self.tables.append((current, start, i))
                current, start = re.sub(r"\s*\.\s*", ".", m.group(1)).replace('"', "").replace("'", ""), i
        self.tables.append((current, start, len(self.lines)))

    def _ranges(self, table: str):
        return [(a, b) for name, a, b in self.tables if name == table] or [(0, len(self.lines))]

    _QUOTED = re.compile(r'"([^"\n]*)"|\'([^\'\n]*)\'')

    def _strings(self, table: str) -> dict:
        """value -> [(line, column), ...] of every quoted string in the table, in file order (built once:
        looking each requirement up line by line was quadratic in the number of dependencies)."""
        index = self._index.get(table)
        if index is None:
            index = {}
            for a, b in self._ranges(table):
                for i in range(a, b):
                    ln = self.lines[i]
                    if ln.lstrip().startswith("#") or ('"' not in ln and "'" not in ln):
                        continue
                    for q in ('"', "'"):  # the same order as a search for "value" then 'value'
                        k = ln.find(q)
                        while k >= 0:
                            e = ln.find(q, k + 1)
                            if e < 0:
                                break
                            index.setdefault(ln[k + 1:e], []).append((i + 1, k + 2))
                            k = ln.find(q, k + 1)
            for positions in index.values():
                positions.sort()
            self._index[table] = index
        return index

    def find_string(self, table: str, value: str, after: int = 0, taken=None):
        """(line, column) of the quoted string in the table; `taken` holds positions already used, so the
        same requirement listed in two extras gets two different lines."""
        positions = self._strings(table).get(value, ())
        start = self._cursor.get((table, value), 0) if taken is self.taken else 0
        for n in range(start, len(positions)):
            pos = positions[n]
            if pos[0] <= after:
                continue
            if taken is None:
                return pos
            if pos not in taken:
                taken.add(pos)
                return pos
            if taken is self.taken and n == start:
                start += 1  # a leading run of taken positions is skipped next time
                self._cursor[(table, value)] = start
        return None

    _KEY = re.compile(r'^\s*["\']?([^"\'=]*?)["\']?\s*=')

    def find_key(self, table: str, key: str):
        if not any(c in key for c in "\"'="):  # the usual case: from an index built once per table
            index = self._keys.get(table)
            if index is None:
                index = {}
                for a, b in self._ranges(table):
                    for i in range(a, b):
                        m = self._KEY.match(self.lines[i])
                        if m and m.group(1) not in index:
                            ln = self.lines[i]
                            index[m.group(1)] = (i + 1, len(ln) - len(ln.lstrip()) + 1)
                self._keys[table] = index
            return index.get(key)
        pat = re.compile(r'^\s*["\']?%s["\']?\s*=' % re.escape(key))
        for a, b in self._ranges(table):
            for i in range(a, b):
                if pat.match(self.lines[i]):
                    return i + 1, len(self.lines[i]) - len(self.lines[i].lstrip()) + 1
        return None


def _str_list_deps(values, table: str, tl: TomlLines, out: list, poetry=False, extra: str = ""):
    if not isinstance(values, list):
        return
    for v in values:
        if not isinstance(v, str):
            continue
        where = tl.find_string(table, v, taken=tl.taken) or tl.find_string(table, v) or (1, 1)
        d = dep_from_string(v, where[0], where[1], where[1] + len(v))
        if d is not None:
            d.extra = extra
            out.append(d)


def _poetry_table(table: object, name: str, tl: TomlLines, man: Manifest):
    if not isinstance(table, dict):
        return
    for key, val in table.items():
        where = tl.find_key(name, key) or (1, 1)
        line = tl.lines[where[0] - 1] if where[0] <= len(tl.lines) else ""
        versions: list = []
        if isinstance(val, str):
            versions = [val]
        elif isinstance(val, dict):
            versions = [val.get("version")] if isinstance(val.get("version"), str) else []
        elif isinstance(val, list):
            versions = [x.get("version") for x in val if isinstance(x, dict) and isinstance(x.get("version"), str)]
        end = len(line.rstrip()) + 1
        if key.lower() == "python":
            for v in versions:
                r = pyreq_from(v, where[0], where[1], poetry=True, end_column=end)
                if r:
                    man.pyreqs.append(r)
            continue
        alts = [s for v in versions for s in poetry_specs(v)]
        man.deps.append(Dep(name=norm(key), raw=line.strip(), alternatives=alts,
                            versions=[x for s in alts for x in dep_versions(s)],
                            line=where[0], column=where[1], end_column=end))


def extra_spans(data: dict, text: str) -> list:
    """(extra, first line, last line) of each `[project.optional-dependencies]` array, 1-based: from its key to
    the line before the next key of the table (or the table's end). Lines a requirement parser drops (a marker
    no Trainium environment meets) still belong to their extra."""
    project: dict = data["project"] if isinstance(data.get("project"), dict) else {}
    opt = project.get("optional-dependencies")
    if not isinstance(opt, dict) or not opt:
        return []
    tl = TomlLines(text)
    table = "project.optional-dependencies"
    ranges = [(a, b) for name, a, b in tl.tables if name == table]
    if not ranges:
        return []
    starts = sorted((where[0], str(extra)) for extra in opt if (where := tl.find_key(table, str(extra))))
    end = ranges[0][1]
    return [(extra, line, (starts[i + 1][0] - 1) if i + 1 < len(starts) else end)
            for i, (line, extra) in enumerate(starts)]


def parse_pyproject(data: dict, text: str) -> Manifest:
    tl = TomlLines(text)
    man = Manifest()
    project = data["project"] if isinstance(data.get("project"), dict) else {}
    _str_list_deps(project.get("dependencies"), "project", tl, man.deps)
    opt = project.get("optional-dependencies")
    if isinstance(opt, dict):
        for extra, vals in opt.items():
            tname = "project.optional-dependencies"
            if not any(n == tname for n, _, _ in tl.tables):
                tname = "project"
            _str_list_deps(vals, tname, tl, man.deps, extra=str(extra))
    rp = project.get("requires-python")
    if isinstance(rp, str):
        where = tl.find_string("project", rp) or tl.find_key("project", "requires-python") or (1, 1)
        r = pyreq_from(rp, where[0], where[1])
        if r:
            man.pyreqs.append(r)
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        for vals in groups.values():
            _str_list_deps(vals, "dependency-groups", tl, man.deps)
    tool = data["tool"] if isinstance(data.get("tool"), dict) else {}
    uv = tool["uv"] if isinstance(tool.get("uv"), dict) else {}
    for key in ("dev-dependencies", "constraint-dependencies", "override-dependencies"):
        _str_list_deps(uv.get(key), "tool.uv", tl, man.deps)
    pdm = tool["pdm"] if isinstance(tool.get("pdm"), dict) else {}
    if isinstance(pdm.get("dev-dependencies"), dict):
        for vals in pdm["dev-dependencies"].values():
            _str_list_deps(vals, "tool.pdm.dev-dependencies", tl, man.deps)
    poetry = tool["poetry"] if isinstance(tool.get("poetry"), dict) else {}
    _poetry_table(poetry.get("dependencies"), "tool.poetry.dependencies", tl, man)
    _poetry_table(poetry.get("dev-dependencies"), "tool.poetry.dev-dependencies", tl, man)
    if isinstance(poetry.get("group"), dict):
        for g, body in poetry["group"].items():
            if isinstance(body, dict):
                _poetry_table(body.get("dependencies"), f"tool.poetry.group.{g}.dependencies", tl, man)
    return man


def parse_pipfile(data: dict, text: str) -> Manifest:
    tl = TomlLines(text)
    man = Manifest()
    for section, body in data.items():
        if section in ("source", "requires", "scripts", "pipenv") or not isinstance(body, dict):
            continue
        for key, val in body.items():
            where = tl.find_key(section, key) or (1, 1)
            line = tl.lines[where[0] - 1]
            ver = val if isinstance(val, str) else (val.get("version") if isinstance(val, dict) else None)
            spec = _spec(ver) if isinstance(ver, str) and ver.strip() not in ("*", "") else None
            alts = [spec] if spec is not None and str(spec) else []
            man.deps.append(Dep(name=norm(key), raw=line.strip(), alternatives=alts,
                                versions=[x for s in alts for x in dep_versions(s)], line=where[0],
                                column=where[1], end_column=len(line.rstrip()) + 1))
    req = data.get("requires")
    if isinstance(req, dict):
        for key in ("python_version", "python_full_version"):
            v = req.get(key)
            if isinstance(v, str):
                where = tl.find_key("requires", key) or (1, 1)
                line = tl.lines[where[0] - 1]
                text_spec = f"=={v}.*" if key == "python_version" else f"=={v}"
                r = pyreq_from(text_spec, where[0], where[1], end_column=len(line.rstrip()) + 1)
                if r:
                    r.raw = line.strip()
                    man.pyreqs.append(r)
    return man


def _pixi_tables(data: dict, prefix: str = "", extra: str = "", depth: int = 0):
    """(dotted table name, body, conda or pypi, feature / target name) of every dependency table of a pixi.toml:
    `[dependencies]`, `[pypi-dependencies]`, and the same under `[feature.<name>]` and `[target.<platform>]`."""
    for key, body in data.items():
        if not isinstance(body, dict):
            continue
        name = f"{prefix}{key}"
        if key in ("dependencies", "pypi-dependencies"):
            yield name, body, key == "dependencies", extra
        elif key in ("feature", "target") and depth < 2:
            for sub, inner in body.items():
                if isinstance(inner, dict):
                    yield from _pixi_tables(inner, f"{name}.{sub}.", extra or str(sub), depth + 1)


def parse_pixi(data: dict, text: str) -> Manifest:
    """A pixi.toml (conda-forge environments): conda match specs under `[dependencies]` (`python = "3.10.*"` is the
    Python requirement), PEP 440 specs under `[pypi-dependencies]`, also in features and platform targets (their
    name is the dependency's extra)."""
    tl = TomlLines(text)
    man = Manifest()
    for table, body, conda, extra in _pixi_tables(data):
        for key, val in body.items():
            ver = val if isinstance(val, str) else (val.get("version") if isinstance(val, dict) else None)
            where = tl.find_key(table, str(key))
            if where is None:
                continue
            line = tl.lines[where[0] - 1]
            end = len(line.rstrip()) + 1
            if conda:
                d = conda_dep(f"{key} {ver}" if isinstance(ver, str) and ver.strip() not in ("*", "") else str(key),
                              where[0], where[1])
                if d is None:
                    continue
                if d.name == "python":
                    if d.alternatives:
                        man.pyreqs.append(PyReq(raw=line.strip(), alternatives=d.alternatives, line=where[0],
                                                column=where[1], end_column=end))
                    continue
                man.deps.append(replace(d, raw=line.strip(), end_column=end, extra=extra))
                continue
            spec = _spec(ver) if isinstance(ver, str) and ver.strip() not in ("*", "") else None
            alts = [spec] if spec is not None and str(spec) else []
            man.deps.append(Dep(name=norm(str(key)), raw=line.strip(), alternatives=alts,
                                versions=[x for sp in alts for x in dep_versions(sp)], line=where[0],
                                column=where[1], end_column=end, extra=extra))
    return man


# ---------------------------------------------------------------- setup.py / setup.cfg

def parse_setup_py(tree: ast.Module, lines: list[str]) -> Manifest:
    """install_requires / extras_require / tests_require / python_requires of setup(...) calls."""
    man = Manifest()
    consts: dict[str, ast.expr] = {}
    node: ast.AST  # a statement in the first loop, any node in the second
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            consts[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            consts[node.target.id] = node.value

    funcs = module_functions(tree)
    arm: dict[int, str] = {}  # id of a requirement string -> platform words of the helper's `if` arm returning it

    def follow(expr, local=None, depth=0):
        while isinstance(expr, ast.Name) and depth < 5:
            if local and expr.id in local:
                expr = local[expr.id]
            elif expr.id in consts:
                expr = consts[expr.id]
            else:
                break
            depth += 1
        return expr

    def values(expr, local=None, depth=0):
        """(value, names it may use) after names and calls of the file's own helper functions."""
        expr = follow(expr, local)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in funcs \
                and not expr.args and depth < 3:
            for ret, names, words in returned(funcs[expr.func.id]):
                for v, vl in values(ret, names, depth + 1):
                    if words:
                        for s in strings(v, vl):
                            arm.setdefault(id(s), words)
                    yield v, vl
        else:
            yield expr, local

    def strings(expr, local=None):
        for value, names in values(expr, local):
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield value
            elif isinstance(value, (ast.List, ast.Tuple, ast.Set)):
                for e in value.elts:
                    yield from strings(e, names)
            elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
                yield from strings(value.left, names)
                yield from strings(value.right, names)
            elif isinstance(value, ast.Dict):
                for v in value.values:
                    yield from strings(v, names)
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
                    value.func.attr in ("split", "splitlines", "strip"):
                yield from strings(value.func.value, names)  # """...""".split()

    def extras_of(expr) -> dict:
        """id of each requirement string of an extras_require dict (a literal, or one a helper returns) -> extra."""
        out: dict[int, str] = {}
        for d, local in values(expr):
            if isinstance(d, ast.Dict):
                for k, v in zip(d.keys, d.values):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str):
                        out.update((id(s), k.value) for s in strings(v, local))
        return out

    def col(node):
        text = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
        c = len(text.encode("utf-8")[: node.col_offset].decode("utf-8", "ignore"))
        return c + 2 if text[c: c + 1] in "\"'" else c + 1

    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        fname = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
        if fname != "setup":
            continue
        for kw in node.keywords:
            if kw.arg in ("install_requires", "extras_require", "tests_require", "setup_requires"):
                # extras_require={"cu118": [...]}: each requirement remembers the extra declaring it
                in_extra = extras_of(kw.value) if kw.arg == "extras_require" else {}
                for s in strings(kw.value):
                    if s.lineno == s.end_lineno:
                        c = col(s)
                        d = dep_from_string(s.value, s.lineno, c, c + len(s.value))
                        if d is not None:
                            d.extra = in_extra.get(id(s), "")
                            d.platform = arm.get(id(s), "")
                            man.deps.append(d)
                        continue
                    # a triple-quoted block, one requirement per line
                    for k, part in enumerate(s.value.split("\n")):
                        n = s.lineno + k
                        text = lines[n - 1] if 0 < n <= len(lines) else ""
                        c = text.find(part.strip()) + 1 if part.strip() else 0
                        d = dep_from_string(part, n, max(c, 1), max(c, 1) + len(part.strip()))
                        if d is not None and c > 0:
                            man.deps.append(d)
            elif kw.arg == "python_requires":
                for s in strings(kw.value):
                    c = col(s)
                    r = pyreq_from(s.value, s.lineno, c)
                    if r:
                        man.pyreqs.append(r)
    return man


def parse_setup_cfg(text: str) -> Manifest:
    man = Manifest()
    section, key = "", None
    for n, ln in enumerate(text.splitlines(), 1):
        body = ln.rstrip()
        if not body.strip() or body.lstrip().startswith(("#", ";")):
            continue
        m = re.match(r"^\[([^\]]+)\]", body)
        if m:
            section, key = m.group(1).strip(), None
            continue
        indented = body[:1].isspace()
        value, vcol = body, 0
        if not indented:
            km = re.match(r"^([\w.\-]+)\s*[=:]\s*(.*)$", body)
            if not km:
                key = None
                continue
            key, value, vcol = km.group(1), km.group(2), km.start(2)
        if key is None:
            continue
        is_deps = (section == "options" and key in ("install_requires", "tests_require", "setup_requires")) \
            or section == "options.extras_require"
        stripped = value.strip()
        if not stripped:
            continue
        start = vcol + (len(value) - len(value.lstrip()))
        if section == "options" and key == "python_requires":
            r = pyreq_from(stripped, n, start + 1)
            if r:
                man.pyreqs.append(r)
        elif is_deps:
            d = dep_from_string(stripped, n, start + 1)
            if d is not None:
                d.extra = key if section == "options.extras_require" else ""
                man.deps.append(d)
            elif "," in stripped:  # `install_requires = a, b` on one line
                for part in stripped.split(","):
                    part = part.strip()
                    d = dep_from_string(part, n, body.find(part) + 1) if part else None
                    if d is not None:
                        man.deps.append(d)
    return man


# ---------------------------------------------------------------- conda environment files

_RECIPE_LIST = re.compile(r"^\s+(?:build|host|run)\s*:\s*$")


def parse_conda(text: str) -> Manifest:
    """`dependencies:` conda specs and the nested `- pip:` list, read line by line (exact lines). A conda-build
    recipe (meta.yaml) lists the same specs under `requirements:` in `build:`, `host:` and `run:`."""
    man = Manifest()
    in_deps, deps_indent, pip_indent = False, -1, None
    in_recipe = False  # inside a recipe's top-level `requirements:` section
    for n, ln in enumerate(text.splitlines(), 1):
        body = strip_comment(ln).rstrip()
        if not body.strip():
            continue
        indent = len(body) - len(body.lstrip())
        if indent == 0:
            in_recipe = bool(re.match(r"^requirements\s*:\s*$", body))
        if re.match(r"^dependencies\s*:", body) or (in_recipe and _RECIPE_LIST.match(body)):
            in_deps, deps_indent, pip_indent = True, indent, None
            continue
        if not in_deps:
            continue
        m = re.match(r"^(\s*)-\s*(.*)$", body)
        if indent <= deps_indent and not m:
            in_deps = False
            continue
        if not m:
            continue
        item = m.group(2).strip()
        item_col = body.find(item) + 1
        if pip_indent is not None and len(m.group(1)) <= pip_indent:
            pip_indent = None
        if re.match(r"^pip\s*:", item):
            pip_indent = len(m.group(1))
            continue
        item = item.strip("\"'")
        if item.startswith(("'", '"')):
            item_col += 1
        if pip_indent is not None:
            d = dep_from_string(item, n, item_col)
            if d is not None:
                man.deps.append(d)
            continue
        _add_conda_spec(man, item, n, item_col)
    if not man.deps and not man.pyreqs:
        _conda_variants(text, man)
    return man


# conda-build's variant file (`conda_build_config.yaml` beside a recipe): each top-level key lists the values the
# recipe is built for. These keys choose the Python and the CUDA release of every package built; a `None` value of
# a CUDA key is the CPU variant, which a Trainium host can install, so such a key says nothing.
_VARIANT_PYTHON = ("python",)
_VARIANT_CUDA = ("cuda", "cuda_compiler_version", "cudatoolkit")
_VARIANT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*$")
_VARIANT_ITEM = re.compile(r"^\s+-\s*[\"']?([^\s\"'#]+)[\"']?\s*$")


def _conda_variants(text: str, man: Manifest) -> None:
    """The Python and CUDA values of a conda-build variant file, read line by line: the Python values as one
    requirement whose alternatives are the variants (reported when none is 3.12-3.14), each CUDA value as a `cuda`
    dependency of that release."""
    values: dict = {}  # key -> [(value, line, column)]
    key = None
    for n, ln in enumerate(text.splitlines(), 1):
        body = strip_comment(ln).rstrip()
        if not body.strip():
            continue
        if not body[:1].isspace():
            m = _VARIANT_KEY.match(body)
            key = m.group(1) if m and m.group(1) in (*_VARIANT_PYTHON, *_VARIANT_CUDA) else None
            continue
        m = _VARIANT_ITEM.match(body)
        if key is not None and m:
            values.setdefault(key, []).append((m.group(1), n, m.start(1) + 1))
    python = values.get("python", [])
    specs = [sp for v, _n, _c in python if re.fullmatch(r"\d+\.\d+(?:\.\d+)?", v)
             for sp in [_spec(f"=={v}.*")] if sp is not None]
    if python and len(specs) == len(python):
        v, n, c = python[0]
        man.pyreqs.append(PyReq(raw="python " + ", ".join(p for p, _n, _c in python), alternatives=specs, line=n,
                                column=c, end_column=c + len(v)))
    for k in _VARIANT_CUDA:
        vals = values.get(k, [])
        if not vals or any(not re.fullmatch(r"\d+(?:\.\d+)*", v) for v, _n, _c in vals):
            continue
        for v, n, c in vals:
            d = conda_dep(f"cuda={v}", n, c)
            if d is not None:
                d.raw, d.end_column = f"{k} {v}", c + len(v)
                man.deps.append(d)


# ---------------------------------------------------------------- Python versions chosen in shell commands

_ASSIGN = re.compile(r"^\s*(?:(?:ARG|ENV)\s+|export\s+)?(?P<name>[A-Za-z_]\w*)(?:=|(?<=\w)\s+(?=[\"']?\d))"
                     r"[\"']?(?P<value>\d+(?:\.\d+){0,2})[\"']?\s*(?:$|\s|#)")
_PY_CMD = re.compile(
    r"(?:\b(?:micromamba|mamba|conda)\s+(?:create|install)\b[^;&|\n]*?[\s\"'](?:python|python3)\s*==?\s*"
    r"|\buv\s+venv\b[^;&|\n]*?\s(?:--python|-p)(?:\s+|=)"
    r"|\buv\s+python\s+(?:install|pin)\s+|\bpyenv\s+(?:install|global|local|virtualenv)\s+(?:-\S+\s+)*"
    r"|\bvirtualenv\b[^;&|\n]*?\s(?:-p|--python)(?:\s+|=)(?:\S*/)?python(?=3\.)"
    r"|(?<![\w/.-])(?:\S*/)?python(?=3\.\d+\s+-m\s+venv\b))"
    r"[\"']?(?P<v>\$\{?[A-Za-z_]\w*\}?|\d+\.\d+(?:\.\d+)?)(?![\w.])")


def shell_assignments(lines: list[str]) -> dict:
    """`ARG PYTHON_VERSION=3.10`, `ENV PY 3.11`, `export PYTHON_VERSION=3.10` -> name -> (value, line, column)."""
    out: dict = {}
    for n, ln in enumerate(lines, 1):
        m = _ASSIGN.match(ln)
        if m and m.group("name") not in out:
            out[m.group("name")] = (m.group("value"), n, m.start("value") + 1)
    return out


# A versioned interpreter a script or notebook installs from the distribution, makes the default, or runs its
# program with: `apt install python3.8`, `update-alternatives --install /usr/bin/python3 python3 /usr/bin/python3.8 1`,
# `python3.8 inference.py` / `python3.8 -m pkg`. (A Dockerfile's apt packages are judged with its base image by
# readers/distro_python.py.)
_PY_INTERPRETER = re.compile(
    r"(?:\bapt(?:-get)?\s+(?:-\S+\s+)*install\b[^;&|\n]*?(?<![\w.-])python"
    r"|\bupdate-alternatives\s+(?:--\S+\s+)*--install\s+\S+\s+python3?\s+\S*/python"
    r"|(?:^|(?<=[\s;&|(!]))(?:sudo\s+)?(?:\S*/)?python(?=3\.\d+\s+(?:-u\s|-m\s+(?!(?:pip|venv|ensurepip)\b)\w|[\w./${}-]+\.py\b)))"
    r"(?P<v>3\.\d+)(?![\w.])")


def shell_pyreqs(text: str, positions, assigns: dict, interpreters: bool = False) -> list:
    """Python versions a shell line installs (`conda create -n x python=3.10`, `uv venv --python 3.10`,
    `pyenv install 3.9.18`; with `interpreters`, also the versioned interpreters of _PY_INTERPRETER) -> PyReq.
    A version taken from a variable set in the same file is reported where the variable is set (that is the line
    to change)."""
    out = []
    found = list(_PY_CMD.finditer(text))
    if interpreters and "python3." in text:
        found += _PY_INTERPRETER.finditer(text)
    for m in found:
        v = m.group("v")
        if v.startswith("$"):
            name = v.strip("${}")
            if name not in assigns:
                continue
            value, line, col = assigns[name]
            raw = f"{name}={value}"
        else:
            value = v
            line, c = positions[m.start("v")] if positions else (1, m.start("v"))
            col = c + 1
            raw = text[m.start(): m.end()].strip()
        spec = f"=={value}.*" if value.count(".") == 1 else f"=={value}"
        r = pyreq_from(spec, line, col, end_column=col + len(value))
        if r:
            r.raw = raw
            out.append(r)
    return out


def parse_python_version_file(text: str) -> Manifest:
    """`.python-version` (pyenv, uv): one interpreter per line, `3.10`, `3.10.14`, `cpython-3.11`, `system`."""
    man = Manifest()
    for n, ln in enumerate(text.splitlines(), 1):
        body = strip_comment(ln).strip()
        m = re.match(r"^(?:c?python-?)?(\d+\.\d+)(\.\d+)?(?:\S*)$", body, re.I)
        if not m:
            continue
        value = m.group(1) + (m.group(2) or "")
        col = ln.find(m.group(1)) + 1
        r = pyreq_from(f"=={value}.*" if not m.group(2) else f"=={value}", n, col, end_column=col + len(value))
        if r:
            r.raw = body
            man.pyreqs.append(r)
    return man


# Manifest parsers by file kind (trnready/filekinds.py): the TOML ones take the parsed table and the text.
TOML_PARSERS = {"pyproject": parse_pyproject, "pipfile": parse_pipfile, "pixi": parse_pixi}
TEXT_PARSERS = {"setup-cfg": parse_setup_cfg, "python-version": parse_python_version_file, "conda": parse_conda}
