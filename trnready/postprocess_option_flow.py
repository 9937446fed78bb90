"""Option defaults handed on to a finding of the same rule in the file (a step of one_per_thing, not a predicate).

`parser.add_argument("--ngpus", default=8)`, then `num_gpus_per_node = args.ngpus` and
`executor.update_parameters(gpus_per_node=num_gpus_per_node, ...)`: the default and the request are one GPU request
to port, and the request is where the port changes it (a Neuron resource instead of a GPU one); the default is a
place of that finding. The request must read the option itself (`args.ngpus`) or a name bound once in the file from
it; a request written with a literal, or reading another option, stays apart, and so does a default no reported
statement of its rule reads.
"""
from __future__ import annotations

import ast

from .astwalk import walk
from .project.config_keys import norm
from .project.option_defaults import _dest


def option_dests(tree) -> dict:
    """line -> the option name (`ngpus` for "--ngpus": `dest=`, else the first long option; lower case, dashes as
    underscores) of each line of an `add_argument(...)` call with a `default=`."""
    out: dict = {}
    for node in walk(tree):
        if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != "add_argument":
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if "default" not in kw:
            continue
        dest = _dest(node, kw)  # the switch step's reading of the option's name (normalised: `ngpus`)
        if dest and dest.isidentifier():
            for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                out[ln] = dest
    return out


def literal_defaults(tree) -> dict:
    """option name -> [(line, column)] of the `default=` values written as a literal (`default="0,1"`, `default=1`,
    `default=[0, 1]`) of the file's `add_argument(...)` calls."""
    out: dict = {}
    for node in walk(tree):
        if type(node) is not ast.Call or type(node.func) is not ast.Attribute or node.func.attr != "add_argument":
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        v = kw.get("default")
        if v is None or not _literal(v):
            continue
        dest = _dest(node, kw)
        if dest and dest.isidentifier():
            out.setdefault(dest, []).append((v.lineno, v.col_offset + 1))
    return out


def _literal(v) -> bool:
    if type(v) in (ast.List, ast.Tuple):
        return bool(v.elts) and all(type(e) is ast.Constant for e in v.elts)
    return type(v) is ast.Constant and type(v.value) in (str, int) and v.value != ""


def readers_of(tree, dests: set) -> dict:
    """dest -> the names bound once in the file from `<x>.dest` (`num_gpus_per_node = args.ngpus`)."""
    bound: dict = {}
    twice: set = set()
    for node in walk(tree):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            name = node.targets[0].id
            if name in bound:
                twice.add(name)
            v = node.value
            bound[name] = norm(v.attr) if type(v) is ast.Attribute and norm(v.attr) in dests else None
    out: dict = {}
    for name, dest in bound.items():
        if dest is not None and name not in twice:
            out.setdefault(dest, set()).add(name)
    return out


def statement_reads(stmt: ast.AST, dest: str, names: set) -> bool:
    """The statement reads the option: `<x>.dest`, or one of the names bound from it."""
    for node in walk(stmt):
        if type(node) is ast.Attribute and norm(node.attr) == dest and type(node.ctx) is ast.Load:
            return True
        if type(node) is ast.Name and node.id in names and type(node.ctx) is ast.Load:
            return True
    return False


def statements_at(tree, lines: set) -> dict:
    """line -> the innermost simple statement (no body) holding it, for the given lines."""
    out: dict = {}
    for node in walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                if ln in lines:
                    out[ln] = node
    return out
