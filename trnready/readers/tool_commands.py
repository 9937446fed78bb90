"""Shell lines that belong to another runtime's tool (`[context.values] other-runtime-commands`): TensorRT's
`trtexec --onnx=model.onnx --fp16` builds a TensorRT engine; its `--fp16` is TensorRT's precision, not a PyTorch
training flag, and the engine build is ported (or dropped) with TensorRT itself, which its import reports.

`foreign_lines(lines, tools)` gives the 1-based lines whose logical command (backslash continuations joined)
runs one of those tools, and the lines assigning a variable (`precision_flag="--fp16"`) that the script reads
only in such commands. Line matchers leave those lines alone (readers/lines.py).
"""
from __future__ import annotations

import re

from .. import requirements as rq

_PREFIX = re.compile(r"^\s*(?:(?:[A-Za-z_]\w*=\S*|sudo|time|exec|nohup|env)\s+)*")
_ASSIGN = re.compile(r"^\s*(?:(?:local|export|readonly)\s+)?(?P<name>[A-Za-z_]\w*)=(?!=)")
_REF = re.compile(r"\$\{?([A-Za-z_]\w*)")


def _tool(text: str, tools: frozenset) -> bool:
    """The command (after `VAR=value`, `sudo`, `time` prefixes, and in each `&&` / `;` / `|` part) runs a tool."""
    for part in re.split(r"&&|\|\||;|\|", text):
        m = _PREFIX.match(part)
        rest = part[m.end() if m else 0:]
        word = rest.split(None, 1)[0] if rest.split() else ""
        if word.rsplit("/", 1)[-1] in tools:
            return True
    return False


def foreign_lines(lines: list[str], tools) -> set:
    tools = frozenset(tools)
    if not tools or not any(t in ln for ln in lines for t in tools):
        return set()
    out: set = set()
    refs: dict = {}  # variable -> (read in a tool command, read elsewhere)
    for text, pos in rq.logical_lines(lines):
        body = rq.strip_comment(text)
        if not body.strip():
            continue
        used = set(_REF.findall(body))
        foreign = _tool(body, tools)
        if foreign:
            out.update(n for n, _ in pos)
        for name in used:
            mine, other = refs.get(name, (False, False))
            refs[name] = (mine or foreign, other or not foreign)
    only = {name for name, (mine, other) in refs.items() if mine and not other}
    for n, ln in enumerate(lines, 1):
        m = _ASSIGN.match(ln)
        if m and m.group("name") in only:
            out.add(n)
    return out
