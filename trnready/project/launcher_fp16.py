"""Report step launcher-fp16: a `--fp16` flag in a shell launcher is float16 mixed precision on CUDA (TRN254)
only when the program it launches reads it so.

The catalogue's line matcher finds `--fp16` / `--memory-efficient-fp16` anywhere in a shell script: right for a
Hugging Face, Accelerate, Lightning or DeepSpeed entry point (their `fp16` turns on CUDA autocast with a
GradScaler) and for a command the scan cannot see into (`fairseq-train`). A project that parses `--fp16` itself
may mean something else by it: DeBERTa's own `--fp16` calls `model.half()` and scales the loss with its own
device-neutral scaler. So the finding is dropped when all of these hold:

- every program the script launches (`python x.py`, `python -m pkg.mod`, `torchrun x.py`, `srun python x.py`)
  is a Python file of the project, and no command runs a framework launcher (`accelerate launch`, `deepspeed`,
  `lightning run`: [context.values] launcher-fp16-framework-launchers);
- none of those files imports a framework that reads the flag itself ([context.values]
  launcher-fp16-frameworks: transformers, accelerate, lightning, deepspeed, trl);
- the project defines the flag in its own argument parser (`add_argument("--fp16", ...)`), so the value is its
  code's to use;
- and that value reaches no CUDA mixed-precision API: no condition reading the key (`if args.fp16:`,
  `GradScaler(enabled=args.fp16)`, `self.amp = args.fp16` then `autocast(enabled=self.amp)`: the switches of
  project/config_switches.py) holds an unguarded cuda-amp finding.

Cheap: nothing runs unless a shell script holds such a finding; then only that script and the launched files are
read, plus a literal test of each Python file's text for the flag.
"""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from ..filekinds import kind_of
from ..read import read_bytes
from .config_keys import norm
from .launched import launched_programs as _targets

_RULE = "TRN254"
MAX_BYTES = 1024 * 1024
_FLAG = re.compile(r"--(?:memory[_-]efficient[_-])?fp16")


def _is_candidate(f) -> bool:
    return f.rule == _RULE and f.cell is None and not f.suppressed and kind_of(PurePosixPath(f.path).name) == \
        "shell" and _FLAG.fullmatch(f.snippet[max(f.column - 1, 0):max(f.end_column - 1, 0)]) is not None


def _imports_any(text: str, modules) -> bool:
    if not modules:
        return False
    pattern = re.compile(r"^[ \t]*(?:from|import)[ \t]+(?:" + "|".join(map(re.escape, modules)) + r")\b", re.M)
    return pattern.search(text) is not None


def _defines(text: str, flag: str) -> bool:
    """`add_argument("--fp16", ...)` (or `add_argument("-f", "--fp16")`) in the text; `-` and `_` are one."""
    body = flag.lstrip("-")
    if re.split(r"[-_]", body)[-1] not in text:
        return False
    spelled = "[-_]".join(re.escape(w) for w in re.split(r"[-_]", body))
    return re.search(r"add_argument\(\s*(?:[\"'][^\"']*[\"']\s*,\s*)*[\"']--" + spelled + r"[\"']", text) is not None


def judge_launcher_fp16(findings: list, files, summaries, engine, read_python, cache=None, digests=()) -> list:
    """Drop the `--fp16` findings of shell launchers whose programs are project code that does not use the flag
    for CUDA mixed precision (see the module docstring)."""
    picked = [i for i, f in enumerate(findings) if _is_candidate(f)]
    if not picked:
        return findings
    values = getattr(getattr(engine, "catalogue", None), "context_values", None) or {}
    frameworks = tuple(values.get("launcher-fp16-frameworks", ()))
    launchers = frozenset(values.get("launcher-fp16-framework-launchers", ()))
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    rels = sorted(py)
    by_rel = {sf.rel: sf for sf in files}
    texts: dict = {}

    def text_of(rel: str) -> str:
        if rel not in texts:
            texts[rel] = read_python(py[rel]) or ""
        return texts[rel]

    defined: dict = {}

    def defined_here(flag: str) -> bool:
        if flag not in defined:
            defined[flag] = any(_defines(text_of(r), flag) for r in rels)
        return defined[flag]

    reach: dict = {}

    def reaches_amp(flag: str) -> bool:
        key = norm(flag.lstrip("-"))
        if key not in reach:
            reach[key] = _reaches(key, findings, files, summaries, cache, digests)
        return reach[key]

    verdict: dict = {}  # shell rel -> whether its programs are project code that does not import a framework
    drop: set = set()
    for i in picked:
        f = findings[i]
        if f.path not in verdict:
            sf = by_rel.get(f.path)
            data = read_bytes(Path(sf.path), f.path, MAX_BYTES)[0] if sf is not None else None
            targets = _targets(f.path, data.decode("utf-8", "replace"), rels, launchers) if data is not None else None
            verdict[f.path] = targets is not None and not any(_imports_any(text_of(t), frameworks) for t in targets)
        if not verdict[f.path]:
            continue
        flag = f.snippet[f.column - 1:f.end_column - 1]
        if defined_here(flag) and not reaches_amp(flag):
            drop.add(i)
    return [f for i, f in enumerate(findings) if i not in drop] if drop else findings


def _reaches(key: str, findings: list, files, summaries, cache, digests) -> bool:
    """Whether a condition of the project reading `key` holds an unguarded cuda-amp finding."""
    from .config_switches import _python_table

    table = _python_table(files, summaries, cache, digests)
    if not table:
        return False
    switches, _reads, _options, _handed = table
    places: dict = {}
    for f in findings:
        if f.category == "cuda-amp" and not f.guarded and not f.suppressed and f.cell is None and f.path in switches:
            places.setdefault(f.path, []).extend(ln for ln, _ in f.places())
    for rel, items in switches.items():
        for k, first, last, _how, _line, _cond, _kw in items:
            if k == key and any(first <= ln <= last for ln in places.get(rel, ())):
                return True
    return False
