"""The same setting written the same way in many config files or launch scripts is one thing to change (a report
step).

A framework's model zoo repeats its runtime defaults in every config: UniFormer's copy of mmpose writes
`dist_params = dict(backend='nccl')` in 310 config modules, its video experiments `NUM_GPUS: 8` in 41 YAML files, its
detection experiments the same `torch.distributed.launch --nproc_per_node=8` line in 28 run scripts. Reported apart,
those were 324 of the repository's 923 findings, and readers judged the zoo copies noise (fresh62: 63 of the 157
findings drawn from UniFormer were such config lines, judged wrong). The port makes one edit, the same in each file (or
one change of the default they all inherit), so the checklist holds one item that lists every place.

Findings of one rule whose snippets are equal up to blanks, in files of the kinds `[context.values]
same-setting-kinds` names (YAML, JSON, TOML and INI configs, shell scripts of one file name, and Python config
modules: files of top-level assignments that inherit a base or set training keys), fold into one when they sit in
`same-setting-min-files` files or more (three): a model zoo or a folder of experiments copies one template many times,
where two configs setting the same key are two recipes a team keeps apart (an Accelerate `zero2.yaml` and
`zero3.yaml`, two CI systems' images, the CUDA 11.8 and 12.1 environment scripts of a CI matrix). The kept finding is
the one a reader should open first: a file beside a launch script in its folder (an experiment's own `config.py`
next to its `run.sh`), then source scope, then the shallowest path, then path order. Python code is never folded
this way: the same `torch.backends.cudnn.benchmark = True` in two programs is two edits in two programs, each read in
its own code. Nor are CI files (scope ci: each workflow is its own job, judged by the CI steps). Guarded and
suppressed findings stay as they are.
"""
from __future__ import annotations

import ast
from pathlib import Path, PurePosixPath

from .filekinds import kind_of
from .postprocess_project_folds import fold_ordered
from .readers.python_configs import _tops, config_shaped, defines_nothing

_LAUNCH_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm")


def same_settings(findings: list, kinds: frozenset, root=None, min_files: int = 3) -> list:
    if not kinds or len(findings) < min_files:
        return findings
    groups: dict = {}
    kind_memo: dict = {}
    for f in findings:
        if f.guarded or f.suppressed or f.cell is not None or f.scope == "ci":
            continue
        kind = kind_memo.get(f.path)
        if kind is None:
            kind = kind_memo[f.path] = _kind(f.path, kinds)
        if not kind:
            continue
        # a launch script counts as a copy only under the same file name (`exp/*/run.sh`): build and environment
        # scripts that export the same variable (`make.sh`, `ops/make.sh`, `env/cuda_env.sh`) are each their own
        name = PurePosixPath(f.path).name if kind == "shell" else ""
        groups.setdefault((f.rule, "".join((f.snippet or "").split()), name), []).append(f)
    beside: dict = {}
    configs: dict = {}  # Python file -> whether it is a config module, read only for groups large enough to fold
    out = []
    for (_rule, snippet, _name), group in groups.items():
        if not snippet or len({f.path for f in group}) < min_files:
            continue
        group = [f for f in group if kind_memo[f.path] != "python" or _memo(configs, f.path, root)]
        if len({f.path for f in group}) < min_files:
            continue
        out.append(sorted(group, key=lambda f: (not _beside_launcher(f.path, root, beside), f.scope != "source",
                                                f.path.count("/"), f.path, f.line, f.column)))
    return fold_ordered(findings, out)


def _kind(rel: str, kinds: frozenset) -> str:
    """The file's kind when it is one of `kinds` ("python" when Python config modules are: whether the file is one is
    asked later, of the files in groups large enough to fold), else ""."""
    kind = kind_of(PurePosixPath(rel).name) or ""
    if kind == "python":
        return "python" if "python-config" in kinds else ""
    return kind if kind in kinds else ""


def _memo(memo: dict, rel: str, root) -> bool:
    got = memo.get(rel)
    if got is None:
        got = memo[rel] = _config_module(rel, root)
    return got


def _config_module(rel: str, root) -> bool:
    """A Python config module, read the way readers/python_configs.py reads one, wherever it sits
    (`exp/top_down_256x192/config.py`): top-level assignments only (no `def`, no `class`, no bare call) that inherit
    a base or set training keys. A module of constants (`d = torch.device("cuda")`, a table of paths) is code, even
    with no `def` in it."""
    if root is None:
        return False
    try:
        text = (Path(root) / rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if not defines_nothing(text):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    tops = _tops(tree)
    return bool(tops) and config_shaped(rel, tops)


def _beside_launcher(rel: str, root, memo: dict) -> bool:
    """A launch script sits in the file's folder (or the file is one)."""
    if rel.endswith(_LAUNCH_SUFFIXES):
        return True
    if root is None:
        return False
    folder = str(PurePosixPath(rel).parent)
    got = memo.get(folder)
    if got is None:
        try:
            got = memo[folder] = any(p.name.endswith(_LAUNCH_SUFFIXES) for p in (Path(root) / folder).iterdir())
        except OSError:
            got = memo[folder] = False
    return got
