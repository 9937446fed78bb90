"""probe-command: a command given as an argument list whose program only looks another program up or prints it."""
from __future__ import annotations

import ast

from .base import predicate

_COMMAND_KEYWORDS = ("args", "cmd", "command")


def _command(call: ast.Call):
    """The command a subprocess / os call runs: its first positional argument or its `args` / `cmd` /
    `command` keyword."""
    if call.args:
        return call.args[0]
    for k in call.keywords:
        if k.arg in _COMMAND_KEYWORDS:
            return k.value
    return None


@predicate("probe-command", kinds=("call",))
def probe_command(ctx, hit) -> bool:
    """The call runs a command written as a list or tuple literal (an argv) whose first element, the program run,
    is one of `command-probes` (`which`, `command`, `type`, `hash`, `echo`, `printf`, `where`):
    `subprocess.run(["which", "nvidia-smi"])` looks the tool up and copes with its absence, `["echo",
    "nvidia-smi"]` prints its name; neither runs it. A matcher's `matches` reads every element of such a list,
    so without this check the tool named in a later element counts as the program. A command as one string
    (`"which nvidia-smi"`) is left to the matcher's own regex, and a first element that is not a literal keeps
    the finding."""
    call = hit.node
    if not isinstance(call, ast.Call):
        return False
    cmd = _command(call)
    if not isinstance(cmd, (ast.List, ast.Tuple)) or not cmd.elts:
        return False
    head = cmd.elts[0]
    if not (isinstance(head, ast.Constant) and isinstance(head.value, str)):
        return False
    program = head.value.strip().rsplit("/", 1)[-1]
    return program in ctx.values.get("command-probes", ())
