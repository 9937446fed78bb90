"""What a setup.py helper function returns, for `install_requires=get_default_dependencies()` and
`extras_require=get_optional_dependencies()` (Liger-Kernel): the lists a module-level function of the same file
returns, with the names it binds to literals in its own body (`cutedsl_deps = [...]` ... `return {"cutedsl":
cutedsl_deps}`). Never executed.

A function that picks its list by platform (`if platform in ["cuda", "cpu"]: return [...]` / `elif platform ==
"rocm": return [...]`) returns every arm's list; each value remembers the strings the test of its `if` arm compares
with, so that an arm taken only on another platform (`"rocm"`, `"npu"`) can be guarded like an extra named for one
(readers/emit.py platform_extra). Arms that also name the host (`"cpu"`) or CUDA, and `else` arms, name nothing."""

from __future__ import annotations

import ast

from .astwalk import walk

_MAX_FUNCS = 64  # setup.py helpers are few; a generated file with hundreds of functions is not followed


def module_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Module-level functions callable without arguments (all parameters have defaults)."""
    out: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if type(node) is ast.FunctionDef and len(node.args.args) == len(node.args.defaults) \
                and not node.args.posonlyargs and not node.args.kwonlyargs:
            out[node.name] = node
            if len(out) > _MAX_FUNCS:
                return {}
    return out


def _compared_strings(test: ast.expr) -> list[str]:
    """The string constants an `if` test compares a value with (`p == "rocm"`, `p in ["cuda", "cpu"]`)."""
    out: list[str] = []
    for node in walk(test):
        if type(node) is ast.Compare:
            for side in (node.left, *node.comparators):
                if type(side) is ast.Constant and isinstance(side.value, str):
                    out.append(side.value)
                elif isinstance(side, (ast.List, ast.Tuple, ast.Set)):
                    out.extend(e.value for e in side.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return out


def returned(func: ast.FunctionDef) -> list[tuple[ast.expr, dict[str, ast.expr], str]]:
    """(returned value, the function's names bound once to a value, platform words of the `if` arm it sits in)."""
    local: dict[str, ast.expr] = {}
    seen: set[str] = set()
    for node in walk(func):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            name = node.targets[0].id
            if name in seen:
                local.pop(name, None)  # bound twice: not one value
            else:
                local[name] = node.value
            seen.add(name)
    out: list[tuple[ast.expr, dict[str, ast.expr], str]] = []

    def visit(body: list[ast.stmt], words: str) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Return):
                if stmt.value is not None:
                    out.append((stmt.value, local, words))
            elif isinstance(stmt, ast.If):
                visit(stmt.body, " ".join(_compared_strings(stmt.test)) or words)
                visit(stmt.orelse, words)  # an `elif` names its own; a final `else` is the enclosing arm's
            elif isinstance(stmt, (ast.Try, ast.With, ast.For, ast.While)):
                for part in ("body", "orelse", "finalbody"):
                    visit(getattr(stmt, part, []) or [], words)
                for h in getattr(stmt, "handlers", []) or []:
                    visit(h.body, words)

    visit(func.body, "")
    return out
