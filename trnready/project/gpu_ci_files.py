"""Report step gpu-ci-files: files of the CI folder that only jobs on another accelerator's runners use.

```yaml
# .github/workflows/test-linux-libs.yml
  unittests-brax:
    uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
    with:
      runner: "linux.g5.4xlarge.nvidia.gpu"          # a GPU leg (readers/ci.py accelerator_legs)
      script: |
        bash .github/unittest/linux_libs/scripts_brax/run_all.sh
```

The CI reader guards the findings inside such a job (`ci-other-accelerator`), but the job's work is often in the
helper files it runs: `run_all.sh` runs `${this_dir}/install.sh` (a CUDA wheel index, TRN505), `run_test.sh`
(`CUDA_VISIBLE_DEVICES`, TRN605), `setup_env.sh` reads `${this_dir}/environment.yml` (a conda Python pin, TRN522); a
benchmark job installs `-r .github/benchmark-requirements.txt` (a CUDA lock file). Those files describe the GPU test
lane, not what the port changes, exactly as the job's own lines do: their findings are guarded with the same name
(listed with --show-guarded, never counted).

A file counts only when it lies in a CI folder (`.github/`, `.circleci/`, `.gitlab/`, `.buildkite/` at the top of the
scan) and every text that names it is a job on another accelerator (a `whole` leg of accelerator_legs or anchored_legs,
or a step that runs only in the matrix legs whose value is not "cpu") or such a file itself (followed to a fixpoint). A
text names a file by its path from the repository root (`.github/unittest/x/run_all.sh`, with or without `./`), or, for
a file of the CI folder, by its path from its own folder (`${this_dir}/install.sh`, `bash install.sh`); a path with
placeholders in its file name names every file it expands to (`.github/workflows/cuda/${{ matrix.cuda-version }}-${{
runner.os }}-env.sh`). A file nothing names, or one a CPU job, a workflow's top-level lines or a file outside that set
names, stays reported. Dockerfiles, launchers and requirements outside the CI folders are what the project ships to
users and are never judged here.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path, PurePosixPath

from ..read import read_bytes

GUARD = "ci-other-accelerator"
CI_DIRS = (".github", ".circleci", ".gitlab", ".buildkite")
_MAX_FILES = 3000
_MAX_BYTES = 512 * 1024


def _ci_file(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    return len(parts) > 1 and parts[0] in CI_DIRS


def _workflow_files(root: Path) -> list[Path]:
    out: list[Path] = []
    try:
        out += sorted(p for p in (root / ".github" / "workflows").iterdir() if p.is_file()
                      and p.suffix in (".yml", ".yaml"))
    except OSError:
        pass
    for p in (root / ".circleci" / "config.yml", root / ".gitlab-ci.yml"):
        if p.is_file():
            out.append(p)
    return out


def _read(p: Path) -> str | None:
    # the scanner's own reader: a regular file within the limit (a FIFO or a link to a device is no CI file)
    data, _ = read_bytes(p, p.name, _MAX_BYTES)
    return data.decode("utf-8", "replace") if data is not None else None


def _job_texts(rel: str, text: str, values: dict) -> list[tuple[bool, str]]:
    """(runs on another accelerator, text) of each job of one workflow file, plus the lines outside every job
    (as not on another accelerator)."""
    from ..readers.ci import _job_of, _last_line, accelerator_legs, anchored_legs
    from ..readers.outline import outline

    entries = outline(text)
    lines = text.splitlines()
    legs = accelerator_legs(rel, entries, values)
    legs = legs + anchored_legs(rel, entries, lines, legs, values)
    gpu = {leg.job for leg in legs if leg.whole}
    spans: dict = {}
    for e in entries:
        job = _job_of(rel, e)
        if job is None:
            continue
        a, b = spans.get(tuple(job), (e.key_line or e.line, _last_line(e)))
        spans[tuple(job)] = (min(a, e.key_line or e.line), max(b, _last_line(e)))
    out: list = []
    inside: set = set()
    for job, (a, b) in spans.items():
        body = lines[a - 1:b]
        if job in gpu:
            out.append((True, "\n".join(body)))
        else:
            out.extend(_step_texts(body))
        inside.update(range(a, b + 1))
    # an anchor used only by GPU jobs is part of them (anchored_legs); its block is outside every job
    for leg in legs:
        if not leg.whole and leg.job and leg.job[0] == "anchor":
            out.append((True, "\n".join(lines[leg.first - 1:leg.last])))
            inside.update(range(leg.first, leg.last + 1))
    out.append((False, "\n".join(ln for n, ln in enumerate(lines, 1) if n not in inside)))
    return out


# A step that runs only in the matrix legs whose value is not the CPU one (`if: ${{ matrix.cuda-version != 'cpu' }}`
# beside a `cuda-version: ['cpu', 'cu118', ...]` axis) is the GPU leg of a job whose CPU leg the port keeps.
_NOT_CPU_STEP = re.compile(r"""^\s*(?:-\s+)?if:.*\bmatrix\.[\w-]+\s*!=\s*['"]cpu['"]""", re.M)
_STEP = re.compile(r"^(\s*)-\s")
# A path written with placeholders (`cuda/${{ matrix.cuda-version }}-${{ runner.os }}-env.sh`, `cuda/${CU}.sh`).
_PLACEHOLDER = r"\$\{\{[^}]*\}\}|\$\{\w+\}|\$\w+"
_TEMPLATED = re.compile(r"(?<![\w.$/-])(?:\./)?[\w./-]*/[\w.-]*(?:(?:" + _PLACEHOLDER + r")[\w.-]*)+")


def _step_texts(body: list[str]) -> list[tuple[bool, str]]:
    """(GPU leg, text) of the steps of one job's lines: a step whose `if:` asks for a matrix value other than "cpu"
    is the GPU leg; everything else of the job is one text that is not."""
    steps_at = next((n for n, ln in enumerate(body) if ln.strip() == "steps:"), None)
    if steps_at is None:
        return [(False, "\n".join(body))]
    found = next(((n, m) for n in range(steps_at + 1, len(body)) if (m := _STEP.match(body[n]))), None)
    if found is None:
        return [(False, "\n".join(body))]
    first, indent = found[0], found[1].group(1)
    starts = [n for n in range(first, len(body)) if body[n].startswith(indent + "- ")]
    rest = body[:first]
    out: list = []
    for a, b in zip(starts, starts[1:] + [len(body)]):
        step = body[a:b]
        if _NOT_CPU_STEP.search("\n".join(step)):
            out.append((True, "\n".join(step)))
        else:
            rest += step
    return out + [(False, "\n".join(rest))]


def _names(text: str, target: str, here: str) -> bool:
    """Does `text` (of a file in folder `here`, "" for the root) name the file `target` (repository-relative)?
    A path with placeholders names every file it can expand to, when its folder is written out
    (`.github/workflows/cuda/${{ matrix.cuda-version }}-${{ runner.os }}-env.sh`)."""
    forms = [f for f in {target, posixpath.relpath(target, here or ".")} if not f.startswith("..")]
    for form in forms:
        if re.search(r"(?<![\w.-])(?:\./)?" + re.escape(form) + r"(?![\w.-])", text):
            return True
    return "$" in text and any(p.fullmatch(form) for p in _templates(text) for form in forms)


@lru_cache(maxsize=256)
def _templates(text: str) -> tuple:
    """The paths written with placeholders in `text`, as patterns of the file names they expand to (each text is
    asked about every candidate file)."""
    out = []
    for m in _TEMPLATED.finditer(text):
        written = m.group(0).removeprefix("./")
        folder, _, name = written.rpartition("/")
        if "$" in folder or not re.sub(_PLACEHOLDER, "", name):
            continue
        out.append(re.compile("".join(re.escape(part) if n % 2 == 0 else r"[\w.-]+"
                                      for n, part in enumerate(re.split("(" + _PLACEHOLDER + ")", written)))))
    return tuple(out)


def gpu_ci_files(findings: list, engine, root) -> list:
    if root is None or not findings:
        return findings
    from ..readers.deps import is_action, is_workflow

    cands = {f.path for f in findings if not f.guarded and _ci_file(f.path) and not is_workflow(f.path)
             and not is_action(f.path)}
    if not cands:
        return findings
    base = Path(root)
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    sources: list = []  # (is a GPU job, text, folder, the CI file it is or None)
    for p in _workflow_files(base):
        text = _read(p)
        if text is None:
            return findings  # a workflow too large to read may name the files: judge nothing
        rel = p.relative_to(base).as_posix()
        for gpu, body in _job_texts(rel, text, values):
            sources.append((gpu, body, "", None))
    if not any(gpu for gpu, *_ in sources):
        return findings
    files: list[str] = []
    for d in CI_DIRS:
        try:
            files += [p.relative_to(base).as_posix() for p in (base / d).rglob("*") if p.is_file()]
        except OSError:
            continue
        if len(files) > _MAX_FILES:
            return findings
    for rel in files:
        if is_workflow(rel) or rel == ".circleci/config.yml":
            continue
        text = _read(base / rel)
        if text is None:
            continue
        sources.append((False, text, str(PurePosixPath(rel).parent), rel))
    # who names each candidate: the sources' indices
    named_by: dict = {}
    wanted = set(cands)
    todo = list(cands)
    while todo:  # the files naming a candidate are candidates too (run_all.sh naming install.sh)
        target = todo.pop()
        refs = [i for i, (_g, text, here, own) in enumerate(sources) if own != target and _names(text, target, here)]
        named_by[target] = refs
        for i in refs:
            own = sources[i][3]
            if own is not None and own not in wanted:
                wanted.add(own)
                todo.append(own)
    gpu_only: set = set()
    changed = True
    while changed:
        changed = False
        for target, refs in named_by.items():
            if target in gpu_only or not refs:
                continue
            if all(sources[i][0] or sources[i][3] in gpu_only for i in refs):
                gpu_only.add(target)
                changed = True
    if not gpu_only:
        return findings
    return [replace(f, guarded=True, guarded_by=GUARD) if not f.guarded and f.path in gpu_only else f
            for f in findings]
