"""One Python module -> a small JSON summary the project-wide link step works from.

Computed in the per-file pass from the syntax tree already in hand and cached with the file's
result, so a warm re-scan links from cached summaries without parsing anything. The summary holds
only what another module can see or what can carry a value across a module boundary:

    imports  local name -> [module, level, name or None]   (how the name is bound)
    consts   module-level NAME = literal                    -> [line, literal source]
    classes  class attribute attr = literal                 -> {class: {attr: [line, literal source]}}
    aliases  NAME = dotted.name / pkg.attr = dotted.name    -> {target: [line, dotted source]}
    funcs    function -> [line, params, defaults, calls using a parameter [line, col, call source]]
    stars    `from module import *` -> [module, level]
    uses     calls that name an import or a module function
             -> [line, col, end_line, end_col, call source, dotted names, passes a literal]
    flags    module-level names assigned only from never-on-Neuron checks (`_SUPPORTS_FLEX = torch.cuda...`)
    guards   blocks run only when an imported project name is true -> [first line, last line, name, choice]
"""
from __future__ import annotations

import ast
import sys

VERSION = 4
MAX_TEMPLATE = 400  # a call longer than this is not carried (generated code, data tables)
MAX_ITEMS = 400  # per list: memory stays flat however large the module

# Imports from these never lead into the project: calls naming only them need no summary entry.
# (An optimisation only: the link step decides what is the project's from the files it has.)
_EXTERNAL = frozenset(sys.stdlib_module_names) | {
    "torch", "numpy", "np", "transformers", "torchvision", "scipy", "pandas", "jax", "tensorflow",
    "triton", "apex", "deepspeed", "accelerate", "einops", "timm", "__future__"}

_LITERALS = (ast.Constant,)


def literal_source(node) -> str | None:
    """Source of a literal value (str, number, bool, None, or a tuple/list of them), else None."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return repr(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return repr(-node.operand.value)
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) <= 16:
        parts = [literal_source(e) for e in node.elts]
        if all(p is not None for p in parts):
            inner = ", ".join(parts) + ("," if len(parts) == 1 and isinstance(node, ast.Tuple) else "")
            return f"({inner})" if isinstance(node, ast.Tuple) else f"[{inner}]"
    return None


def dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _roots(call: ast.Call):
    """Root names of the dotted expressions a call mentions (callee and arguments, not nested calls)."""
    yield dotted(call.func)
    for a in call.args:
        yield dotted(a.value if isinstance(a, ast.Starred) else a)
    for k in call.keywords:
        yield dotted(k.value)


def value_needles(engine) -> tuple:
    """The literal values the selected rules' argument predicates look for (`mode in ["bilinear", ...]`)."""
    found = getattr(engine, "_link_needles", None)
    if found is None:
        vals = {v for r in engine.rules for m in r.matchers for a in m.args if a.op in ("equals", "in")
                for v in a.values if isinstance(v, str) and v}
        found = tuple(sorted(vals, key=len))
        engine._link_needles = found
    return found


def worth_parsing(text: str, name: str, engine) -> bool:
    """For a file nothing matched in: whether its summary could matter to another module."""
    return name == "__init__.py" or any(v in text for v in value_needles(engine))


def api_names(engine) -> frozenset:
    """Last parts of the names the rules look for (`interpolate`, `init_process_group`)."""
    found = getattr(engine, "_link_api_names", None)
    if found is None:
        found = engine._link_api_names = frozenset(getattr(engine, "prefilter_tokens", ()))
    return found


def summarize(tree: ast.Module, apis: frozenset = frozenset(), calls: list | None = None,
              values: dict | None = None) -> dict:
    """`calls`: every Call node of the tree when the caller already walked it (else walked here);
    `values`: the catalogue's [context.values] (for the never-on-Neuron flags)."""
    if calls is None:
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    imports: dict = {}
    consts: dict = {}
    classes: dict = {}
    aliases: dict = {}
    funcs: dict = {}
    uses: list = []
    stars: list = []
    assigned_twice: set = set()
    body = tree.body
    for st in _top_statements(body):
        if isinstance(st, ast.Import):
            for a in st.names:
                if a.asname:
                    imports[a.asname] = [a.name, 0, None]
                else:
                    top = a.name.split(".", 1)[0]
                    imports.setdefault(top, [top, 0, None])
        elif isinstance(st, ast.ImportFrom):
            for a in st.names:
                if a.name != "*":
                    imports[a.asname or a.name] = [st.module or "", st.level, a.name]
                elif len(stars) < 64:  # `from .ops import *`: names looked up there when not found here
                    stars.append([st.module or "", st.level])
        elif isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            for t in targets:
                name = dotted(t)
                if name is None:
                    continue
                if name in consts or name in aliases:
                    assigned_twice.add(name)
                lit = literal_source(st.value)
                target = dotted(st.value)
                if lit is not None and isinstance(t, ast.Name):
                    consts[name] = [st.lineno, lit]
                elif target is not None and "." in target:
                    aliases[name] = [st.lineno, target]
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs[st.name] = st
        elif isinstance(st, ast.ClassDef):
            attrs = {}
            for s in st.body:
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                    lit = literal_source(s.value)
                    if lit is not None:
                        attrs[s.targets[0].id] = [s.lineno, lit]
                elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is not None:
                    lit = literal_source(s.value)
                    if lit is not None:
                        attrs[s.target.id] = [s.lineno, lit]
            if attrs:
                classes[st.name] = attrs
    # A name bound twice at module level has no single value: never guess which one reaches a call.
    for name in assigned_twice:
        consts.pop(name, None)
        aliases.pop(name, None)
    interesting = {n for n, (mod, level, _) in imports.items()
                   if level or mod.split(".", 1)[0] not in _EXTERNAL} | set(funcs) | set(classes)
    if funcs:
        _function_calls(funcs, calls)
    if interesting:
        for node in calls:
            if len(uses) < MAX_ITEMS:
                names = [r for r in _roots(node) if r]
                callee = names[0] if names and names[0] == dotted(node.func) else None
                args = names[1:] if callee else names
                lit = any(literal_source(a) is not None for a in (*node.args, *(k.value for k in node.keywords)))
                # Kept: a library API (by its last name) given or reached through a project name, or
                # a project callee given a literal or a project value. Anything else cannot gain.
                project_arg = any(a.split(".", 1)[0] in interesting for a in args)
                if callee and callee.split(".", 1)[0] in interesting:
                    keep = lit or project_arg or callee.rsplit(".", 1)[-1] in apis
                else:
                    keep = project_arg and callee is not None and callee.rsplit(".", 1)[-1] in apis
                if keep:
                    src = ast.unparse(node)
                    if len(src) <= MAX_TEMPLATE:
                        # the dotted names and whether a literal is passed let the link step skip
                        # most calls without parsing them again
                        uses.append([node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, src,
                                     sorted(set(names)), lit])
    from ..context.neuron_guarded import module_flags
    flags = module_flags(tree, values or {})[:MAX_ITEMS]
    project_names = {n for n, (mod, level, name) in imports.items()
                     if name is not None and (level or mod.split(".", 1)[0] not in _EXTERNAL)}
    guards = guards_of(tree, project_names) if project_names else []
    return {"v": VERSION, "imports": imports, "consts": consts, "classes": classes, "aliases": aliases,
            "funcs": funcs, "uses": uses, "stars": stars, "flags": flags, "guards": guards}


MAX_GUARDS = 200  # blocks per module: the summary stays small however large the module


def guards_of(tree: ast.Module, imported: set) -> list:
    """[[first line, last line, name, choice]] for every block that runs only when an imported name is
    true: the body of `if NAME:` / `if NAME and ...:`, the `else` of `if not NAME:`. `choice` says the
    statement has another branch (a device picked in either arm stays a finding)."""
    out: list = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or len(out) >= MAX_GUARDS:
            continue
        test = node.test
        parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        for p in parts:
            if isinstance(p, ast.Name) and p.id in imported and node.body:
                out.append([node.body[0].lineno, _end(node.body), p.id, bool(node.orelse)])
                break
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name) \
                and test.operand.id in imported and node.orelse:
            out.append([node.orelse[0].lineno, _end(node.orelse), test.operand.id, True])
    return out


def _end(stmts) -> int:
    return max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in stmts)


def _top_statements(body):
    """Module-level statements, including those under if/try (TYPE_CHECKING, optional imports)."""
    for st in body:
        if isinstance(st, ast.If):
            yield from _top_statements(st.body)
            yield from _top_statements(st.orelse)
        elif isinstance(st, ast.Try):
            yield from _top_statements(st.body)
        else:
            yield st


def _function_calls(funcs: dict, calls: list) -> None:
    """funcs: name -> def node, replaced by its summary; calls sorted into the function holding them."""
    spans = sorted((fn.lineno, fn.end_lineno or fn.lineno, name) for name, fn in funcs.items())
    inside: dict = {name: [] for name in funcs}
    starts = [s for s, _, _ in spans]
    import bisect

    for node in calls:
        i = bisect.bisect_right(starts, node.lineno) - 1
        if i >= 0 and spans[i][0] <= node.lineno <= spans[i][1]:
            inside[spans[i][2]].append(node)
    for name, fn in list(funcs.items()):
        funcs[name] = _function(fn, inside[name])


def _function(fn, calls_in: list) -> list:
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    params = positional + [p.arg for p in a.kwonlyargs]
    defaults = {}
    for p, d in zip(positional[len(positional) - len(a.defaults):], a.defaults):
        lit = literal_source(d)
        if lit is not None:
            defaults[p] = lit
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        lit = literal_source(d) if d is not None else None
        if lit is not None:
            defaults[p.arg] = lit
    names = set(params)
    calls = []
    for node in calls_in:
        if len(calls) < MAX_ITEMS:
            used = {r for r in _roots(node) if r} - {dotted(node.func)}
            if used & names:
                src = ast.unparse(node)
                if len(src) <= MAX_TEMPLATE:
                    calls.append([node.lineno, node.col_offset, src])
    return [fn.lineno, params, defaults, calls]


def valid(summary) -> bool:
    """A cached summary of the right shape (anything else is a cache miss)."""
    if summary is None:
        return True
    if not isinstance(summary, dict) or summary.get("v") != VERSION:
        return False
    try:
        ok = all(isinstance(k, str) and isinstance(m, str) and isinstance(lv, int) and (n is None or isinstance(n, str))
                 for k, (m, lv, n) in summary["imports"].items())
        ok = ok and all(isinstance(line, int) and isinstance(s, str)
                        for d in (summary["consts"], summary["aliases"], *summary["classes"].values())
                        for line, s in d.values())
        ok = ok and all(isinstance(line, int) and isinstance(ps, list) and isinstance(ds, dict)
                        and all(isinstance(c[0], int) and isinstance(c[1], int) and isinstance(c[2], str) for c in cs)
                        for line, ps, ds, cs in summary["funcs"].values())
        ok = ok and all(isinstance(m, str) and isinstance(lv, int) for m, lv in summary["stars"])
        ok = ok and all(isinstance(n, str) for n in summary["flags"])
        ok = ok and all(len(g) == 4 and isinstance(g[0], int) and isinstance(g[1], int) and isinstance(g[2], str)
                        and isinstance(g[3], bool) for g in summary["guards"])
        ok = ok and all(len(u) == 7 and all(isinstance(x, int) for x in u[:4]) and isinstance(u[4], str)
                        and isinstance(u[5], list) and all(isinstance(n, str) for n in u[5])
                        and isinstance(u[6], bool) for u in summary["uses"])
        return ok
    except (TypeError, ValueError, KeyError, AttributeError):
        return False
