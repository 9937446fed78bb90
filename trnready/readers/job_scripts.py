"""Shell job scripts written as Python strings: launchers that generate a Slurm or shell script.

A launcher such as `script = f\"\"\"#!/bin/bash\\n#SBATCH --gpus-per-node={gpus}\\n...\"\"\"` writes the job script the
cluster runs; its `#SBATCH` directives and commands are the launcher's requests, exactly as in a `.sh` file.
A multi-line string literal (plain or f-string) that starts with a shell shebang or holds `#SBATCH` lines is
read with the shell line matchers, on its own source lines (the first line, which holds the Python
assignment, excepted). Docstrings are documentation, never scripts.
"""
from __future__ import annotations

import ast
import re

from .emit import Emitter
from .lines import emit_lines
from ..astwalk import of_kinds, walk

_SHEBANG = re.compile(r"^\s*#!\s*/(?:usr/)?bin/(?:env\s+)?(?:ba|z|k|da)?sh\b")
_DIRECTIVE = re.compile(r"(?m)^\s*#SBATCH\s")


def _text(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                       for v in node.values)
    return None


def _docstrings(tree: ast.Module) -> set:
    out = set()
    for node in walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", None)
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def script_lines(tree: ast.Module) -> set:
    """1-based source lines inside job-script strings."""
    docs = None
    only: set = set()
    for node in walk(tree):
        if not isinstance(node, (ast.Constant, ast.JoinedStr)):
            continue
        end = node.end_lineno
        if end is None or end <= node.lineno:
            continue
        text = _text(node)
        if not text or not (_SHEBANG.match(text) or _DIRECTIVE.search(text)):
            continue
        if docs is None:
            docs = _docstrings(tree)
        if id(node) in docs:
            continue
        only.update(range(node.lineno + 1, end + 1))
    return only


# One-line strings that are shell text a program hands to the system: a container command (`docker run --gpus all
# ...` passed to subprocess / os.system by a test or a launcher) or the name of a CUDA image (`"qwenllm/qwen:cu117"`,
# `"nvidia/cuda:12.1.0-devel-ubuntu22.04"`) a launcher runs. Their source line is read by the shell line matchers.
_CONTAINER_COMMAND = re.compile(r"^\s*(?:sudo\s+)?(?:docker|podman|nerdctl)\s+(?:container\s+)?(?:run|create)\s")
_CUDA_IMAGE = re.compile(r"^(?:[\w.-]+/)+[\w.-]+:(?:[\w.-]*[-_])?(?:cuda[-_]?\d|cu1\d\d(?![\d]))[\w.-]*$"
                         r"|^(?:[\w.-]+/)*(?:nvidia/cuda|nvidia/pytorch):[\w.-]+$", re.I)


# A pip command a launcher runs (`torch_command = "pip install torch==1.12.1+cu113 --extra-index-url ..."`, then
# `run(f'"{python}" -m {torch_command}')`): the install of the environment the program will run in. The same words
# in a message (`raise ImportError("pip install flash-attn")`, `print(...)`, a log or warning call) are a hint.
_PIP_COMMAND = re.compile(r"^\s*(?:\S*python[\d.]*\S*\s+-m\s+)?(?:uv\s+)?pip3?\s+install\s")
_MESSAGE_CALLS = frozenset({"print", "warn", "warning", "info", "debug", "error", "exception", "critical", "fatal",
                            "log", "echo", "secho", "write"})


def _messages(tree: ast.Module) -> set:
    """ids of the strings inside a raise, an assert or a call that prints, logs or warns."""
    out: set = set()
    for node in walk(tree):
        holder: ast.AST | None = None
        if isinstance(node, (ast.Raise, ast.Assert)):
            holder = node
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in _MESSAGE_CALLS or name.endswith(("Error", "Exception", "Warning")):
                holder = node
        if holder is not None:
            out.update(id(n) for n in walk(holder) if isinstance(n, (ast.Constant, ast.JoinedStr)))
    return out


_STRING_KINDS = frozenset((ast.Constant, ast.JoinedStr))
# A Slurm submission a launcher builds (`cmd = ("sbatch" "  --gpus={n}" ...)`, then `os.system(cmd.format(...))`):
# its options are the job's requests as in a `.sh` file, and the adjacent literals Python joins into one string each
# keep their own source line, so the whole string is read (a message naming the command is not one).
_SCHEDULER_COMMAND = re.compile(r"^\s*(?:sbatch|srun|salloc|bsub)\s+-")
# An LSF GPU request kept in its own string (`gpu_requirements = f"-gpu num={n}:j_exclusive=yes"`, then joined into a
# `bsub` command): the option is the job's request wherever the launcher builds the rest of the command
_LSF_GPU_OPTION = re.compile(r"^\s*-gpu\s+[\"']?num=")


def command_string_lines(tree: ast.Module) -> set:
    """1-based source lines of one-line strings holding a container command, a CUDA image name, a pip command or
    an LSF GPU option, and of every line of a Slurm or LSF command string (`pip` below: a command whose words in a
    message are a hint)."""
    docs = messages = None
    out: set = set()
    for node in of_kinds(tree, _STRING_KINDS):  # (a set of lines: the order the strings are met does not matter)
        text = _text(node)
        if node.end_lineno != node.lineno:
            if text and len(text) <= 4000 and _SCHEDULER_COMMAND.match(text) and node.end_lineno:
                if messages is None:
                    messages = _messages(tree)
                if docs is None:
                    docs = _docstrings(tree)
                if id(node) not in messages and id(node) not in docs:
                    out.update(range(node.lineno, node.end_lineno + 1))
            continue
        if not text or len(text) > 2000:
            continue
        pip = _PIP_COMMAND.match(text) is not None or _SCHEDULER_COMMAND.match(text) is not None \
            or _LSF_GPU_OPTION.match(text) is not None
        if not (pip or _CONTAINER_COMMAND.match(text) or _CUDA_IMAGE.match(text.strip())):
            continue
        if docs is None:
            docs = _docstrings(tree)
        if id(node) in docs:
            continue
        if pip:
            if messages is None:
                messages = _messages(tree)
            if id(node) in messages:
                continue
        out.add(node.lineno)
    return out


_SHELL_WORDS = ("#SBATCH", "#!", "docker", "podman", "nerdctl", "pip install", "pip3 install", "sbatch", "srun",
                "salloc", "bsub", "-gpu num=")
# A CUDA tag in an image name (`:cu121`, `-cuda12.1`, `_cu118`). The pattern starts with a literal so the regex
# engine skips ahead to each "cu"; one alternation led by a character class tried every position of every file
# (an eighth of the parse time on diffusers/src).
_CUDA_TAG = re.compile(r"cu(?:da)?[-_]?\d")


def may_hold_shell_text(text: str) -> bool:
    """A cheap test before parsing: the file may hold a job script, a container command or a CUDA image name."""
    if any(w in text for w in _SHELL_WORDS):
        return True
    return any(m.start() and text[m.start() - 1] in ":-_" for m in _CUDA_TAG.finditer(text))


def job_script_findings(ctx, tree: ast.Module) -> list:
    only: set = set()
    if "#SBATCH" in ctx.text or "#!" in ctx.text:
        only = script_lines(tree)
    if may_hold_shell_text(ctx.text):
        only |= command_string_lines(tree)
    if not only:
        return []
    em = Emitter(ctx.rel)
    emit_lines("shell", ctx.text.splitlines(), ctx.engine, em, ctx.text, only=only)
    return em.out
