"""env-set-off: an environment switch set to a false value (`os.environ["FORCE_CUDA"] = "0"`)."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

# The values a build or feature switch reads as "off": the scripts that ship with such a switch write it this way
# (`os.environ["RWKV_CUDA_ON"] = '0'  # '1' to compile CUDA kernel`)
_OFF = frozenset({"0", "", "false", "no", "off", "n"})


def _off(value) -> bool:
    if isinstance(value, ast.Constant):
        v = value.value
        if isinstance(v, bool) or isinstance(v, int):
            return not v
        if isinstance(v, str):
            return v.strip().lower() in _OFF
    return False


def _environ(e) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "environ" or isinstance(e, ast.Name) and e.id == "environ"


def _written_value(ctx, node):
    """The value written under the name: `os.environ[NAME] = v`, `os.environ.setdefault(NAME, v)`, `{NAME: v}`
    handed to `os.environ.update`; None when the name is not the key of such a write."""
    up = parent_of(ctx, node)
    if isinstance(up, ast.Subscript) and up.slice is node and isinstance(up.ctx, ast.Store) and _environ(up.value):
        st = parent_of(ctx, up)
        if isinstance(st, ast.Assign) and len(st.targets) == 1:
            return st.value
        return None
    if isinstance(up, ast.Call) and len(up.args) == 2 and up.args[0] is node \
            and isinstance(up.func, ast.Attribute) and up.func.attr == "setdefault" and _environ(up.func.value):
        return up.args[1]
    if isinstance(up, ast.Dict) and node in up.keys:
        return up.values[up.keys.index(node)]
    return None


@predicate("env-set-off", kinds=("env",))
def env_set_off(ctx, hit) -> bool:
    """The variable's name is the key of a write of a false literal: `os.environ["RWKV_CUDA_ON"] = '0'`,
    `os.environ.setdefault("FORCE_CUDA", "0")`, `os.environ.update({"BUILD_CUDA_EXT": "false"})`, also `os.environ.
    update(FORCE_CUDA="0")`. A switch that turns a CUDA kernel build on when set to 1 builds nothing when set to 0
    (`"0"`, `""`, `"false"`, `"no"`, `"off"`, `0`, `False`): the script has already chosen the path Trainium needs.
    A true value, a value that is not a literal (a flag, an argument) and every read stay with the rule."""
    node = hit.node
    up = parent_of(ctx, node)
    if isinstance(up, ast.keyword) and up.value is node:  # os.environ.update(FORCE_CUDA="0"): the hit is the value
        return _off(node)
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    value = _written_value(ctx, node)
    return value is not None and _off(value)
