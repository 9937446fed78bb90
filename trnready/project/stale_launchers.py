"""Link step: a shell launcher none of whose Python programs exists in the repository any more.

A research repository keeps its old launch scripts after the code moves. SpeakerVerification's
`TrainAndTest/train_gain.sh` still runs `python TrainAndTest/train_gain.py --gpu-id 0,1`, a program that now lives in
`TrainAndTest/train_egs/`; `TrainAndTest/fbank/train_dom.sh` runs `TrainAndTest/Spectrogram/...`, a folder renamed
`spectrogram`. Such a script fails before any GPU flag of it matters, and nobody runs it: its findings (`--gpu-id`,
`CUDA_VISIBLE_DEVICES`, a GPU count) are guarded (`guarded_by` "stale-launcher").

A shell script (`*.sh`, job scripts) with an active finding is judged stale only when all of these hold, so the
step errs on the side of keeping it:

- its launch commands (readers/launch_args.py: a line running `python`, `torchrun`, ... or a `.py` file) name at
  least one Python program by a literal relative path, and none of those paths is a file of the repository,
  resolved from the script's folder, from each folder above it up to the root, and from each literal `cd`
  target of the script (relative to those folders);
- each program it names moved: a Python file of that name is elsewhere in the scan (`train_gain.py` is in
  `TrainAndTest/train_egs/`), or was deleted from a folder of the project that still holds its other Python files
  (`python3 model/roberta_con_prop.py` beside `model/je_con_prop.py`: contrastive_biencoder, fresh84). A name the
  repository never had, in no folder of it, is another project's program, run from its own checkout (a recipe
  written for a library's examples): the script is kept;
- no command names a program through a variable (`python $ROOT/train.py`, `torchrun $ENTRY`), an absolute or home
  path, or a `-m` module of the project; a launcher command naming no program at all leaves the script alone;
- a program named without a folder (`decorrupt.py`) is not run by a script that sources a file or sets PATH: a Kaldi
  / ESPnet recipe's `. ./path.sh` puts the project's script folders on the PATH (nnet_pytorch, blind78);
- no `cd` goes to a variable, and nothing in the script fetches code (`git clone`, `wget`, `curl`, `scp`,
  `rsync`): the program may come from elsewhere at run time;
- no command runs in a container (`docker run ... image python3.8 usecase/train/train.py`, `singularity exec`,
  `apptainer run`, `podman run`, `enroot start`, `srun --container-image`): its paths are the container's, often a
  folder of the repository mounted as its working directory (Contrastively-Disentangled-Sequential-Variational-
  Audoencoder mounts `scripts/` there, blind84);
- the scan covers the whole project (no folder above the root holds `.git` or packaging), since a partial scan
  may not see the programs.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from ..readers.launch_args import MODULE, SCRIPT
from .launched import launch_commands

REASON = "stale-launcher"
_FETCHES = ("git clone", "wget ", "curl ", "scp ", "rsync ", "git pull", "git checkout")
_CD = re.compile(r"(?:^|[;&|(]|\bthen|\bdo)\s*(?:pushd|cd)\s+(?P<target>[^\s;&|)]+)", re.M)
# a program written after a variable or a home / absolute prefix: `$ROOT/train.py`, `${DIR}/x.py`, `~/x.py`
_UNKNOWN_PROGRAM = re.compile(r"(?:[$}~]|(?<![\w.-])/)[\w./${}-]*\.py\b")
# a command run in a container: its paths are the container's (a mounted folder of the repository as its workdir)
_IN_CONTAINER = re.compile(r"\b(?:(?:docker|podman|nvidia-docker)\s+(?:container\s+)?(?:run|exec)"
                           r"|(?:singularity|apptainer)\s+(?:exec|run|shell)|enroot\s+(?:start|exec)"
                           r"|--container-image)\b")
# the script sources a file or sets PATH itself: a program named without a folder (`decorrupt.py --gpu`) may be found
# on the PATH, as a Kaldi / ESPnet recipe's `. ./path.sh` puts the project's script folders there
_SETS_PATH = re.compile(r"(?:^|[;&|]\s*)(?:\.|source)\s+\S|(?:^|[\s;])(?:export\s+)?PATH=", re.M)


def guard_stale_launchers(findings: list, files, root, read_text) -> list:
    """Mark guarded (`stale-launcher`) the findings of shell scripts whose named programs are all missing.
    `read_text(rel)` returns any scanned file's text."""
    shells = {sf.rel for sf in files if sf.kind == "shell"}
    todo = sorted({f.path for f in findings if f.path in shells and not f.guarded and not f.suppressed})
    if not todo:
        return findings
    from .unreferenced import _partial_scan

    base = Path(root)
    if _partial_scan(base):
        return findings
    names = {sf.rel.rsplit("/", 1)[-1] for sf in files if sf.kind == "python"}
    stale = {rel for rel in todo if _stale(rel, read_text(rel) or "", base, names)}
    if not stale:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON)
            if f.path in stale and not f.guarded and not f.suppressed else f for f in findings]


def _stale(rel: str, text: str, root: Path, names: set) -> bool:
    if not text or any(w in text for w in _FETCHES) or _IN_CONTAINER.search(text):
        return False
    folder = posixpath.dirname(rel)
    bases = [folder]
    while folder:
        folder = posixpath.dirname(folder)
        bases.append(folder)
    for m in _CD.finditer(text):
        target = m.group("target").strip("\"'")
        if "$" in target or "`" in target or target.startswith(("/", "~", "-")):
            return False
        bases += [posixpath.join(b, target) for b in list(bases)]
    named = 0
    for cmd in launch_commands(text):
        if _UNKNOWN_PROGRAM.search(cmd):
            return False
        scripts = [m.group("path") for m in SCRIPT.finditer(cmd)]
        modules = [m.group("mod").replace(".", "/") for m in MODULE.finditer(cmd)]
        if not scripts and not modules:
            return False  # `python -c ...`, `torchrun $ENTRY`, `srun python`: a program the script does not name
        for mod in modules:
            if any(_is_file(root, b, mod + tail) for b in bases for tail in (".py", "/__init__.py", "/__main__.py")):
                return False
        for path in scripts:
            named += 1
            if "/" not in path and _SETS_PATH.search(text):
                return False
            if any(_is_file(root, b, path) for b in bases):
                return False
            if path.rsplit("/", 1)[-1] not in names and not _own_folder(root, bases, path):
                return False  # never part of this repository (a program of another project)
    return named > 0


def _own_folder(root: Path, bases: list, path: str) -> bool:
    """The program's folder is one of the repository's Python folders (`model/roberta_con_prop.py` beside the
    project's other `model/*.py`): a program deleted from the project, not another project's (contrastive_biencoder's
    run scripts, fresh84)."""
    folder = posixpath.dirname(path)
    if not folder or folder.startswith(("/", "~", "$")):
        return False
    for b in bases:
        joined = posixpath.normpath(posixpath.join(b, folder))
        if joined.startswith(".."):
            continue
        try:
            d = root / joined
            if d.is_dir() and any(p.suffix == ".py" for p in d.iterdir()):
                return True
        except OSError:
            continue
    return False


def _is_file(root: Path, base: str, path: str) -> bool:
    joined = posixpath.normpath(posixpath.join(base, path))
    if joined.startswith("../") or joined == "..":
        return True  # outside the scanned tree: it may be there, the scan cannot tell
    try:
        return (root / joined).is_file()
    except OSError:
        return True
