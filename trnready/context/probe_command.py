"""probe-command: a command that only looks a program up or prints its name, or one run where its absence is caught."""
from __future__ import annotations

import ast

from .base import caught_names, enclosing_try_bodies, predicate

_COMMAND_KEYWORDS = ("args", "cmd", "command")
# what subprocess raises when the program is not installed (FileNotFoundError, an OSError), and the broader classes
_MISSING = frozenset({"FileNotFoundError", "OSError", "Exception", "BaseException"})


def _catches_missing(ctx, call) -> bool:
    """The call sits in the body of a `try` one of whose handlers catches a missing program (bare `except:`,
    FileNotFoundError, OSError, Exception) without raising again."""
    for t in enclosing_try_bodies(ctx, call):
        for h in t.handlers:
            named = caught_names(h)
            if (named is None or named & _MISSING) and not any(isinstance(st, ast.Raise) for st in h.body):
                return True
    return False


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
    the finding. Also a run in a `try` whose handler catches the missing program (`except FileNotFoundError:`,
    `OSError`, `Exception`, bare) and does not raise: the program copes with the tool's absence, as a shell test
    `command -v nvidia-smi` does (diffusers' `env` report)."""
    call = hit.node
    if not isinstance(call, ast.Call):
        return False
    if _catches_missing(ctx, call):
        return True
    cmd = _command(call)
    if not isinstance(cmd, (ast.List, ast.Tuple)) or not cmd.elts:
        return False
    head = cmd.elts[0]
    if not (isinstance(head, ast.Constant) and isinstance(head.value, str)):
        return False
    program = head.value.strip().rsplit("/", 1)[-1]
    return program in ctx.values.get("command-probes", ())
