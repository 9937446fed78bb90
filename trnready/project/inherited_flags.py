"""Instance flags a class of another module sets from a never-on-Neuron check, read by a subclass or through an
instance. Inherited: `self.use_gpu =
torch.cuda.is_available() and use_gpu` in `Engine.__init__` (engine.py), then `if self.use_gpu: imgs = imgs.cuda()`
in `class TripletEngine(Engine)` (triplet.py). Within one file neuron-guarded judges `self.use_gpu` itself; across
files the per-file pass records each block a method of a class with a project base guards with an attribute the
class never assigns (`guards`, name `<Base.attr`, every base joined by `|`), and the link step guards the block when
a base's module holds `self.attr` among its never-on-Neuron flags (`flags`, context/neuron_guarded.module_flags).
Through an instance: `with Engine(...) as engine:` (or `engine = Engine(...)`, bound once in the function) then `if
engine.distributed:` records `<Engine.distributed` the same way (ACNet's training script). The link side is
project/flags.py `_inherited_flag`."""
from __future__ import annotations

import ast

from ..astwalk import own_statements, statements

MARK = "<"  # an inherited instance flag in `guards` (a Python name never starts with it)


def inherited_guards(tree: ast.Module, imported: set, limit: int) -> list:
    """[[first line, last line, "<Base.attr|Other.attr", choice]] for the body of `if self.attr:` /
    `if self.attr and ...:` in the methods of a top-level class whose bases include names the module imports from
    the project, when no method of the class assigns `self.attr`. `choice`: the `if` has an else arm."""
    out: list = []
    for cls in tree.body:
        if type(cls) is not ast.ClassDef:
            continue
        bases = [b.id for b in cls.bases if type(b) is ast.Name and b.id in imported]
        if not bases:
            continue
        own: set = set()
        tests: list = []
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.args.args \
                    or fn.args.args[0].arg != "self":
                continue
            for st in own_statements(fn.body):
                k = type(st)
                if k is ast.Assign or k is ast.AnnAssign or k is ast.AugAssign:
                    for t in (st.targets if k is ast.Assign else [st.target]):
                        if _self_name(t):
                            own.add(t.attr)
                elif k is ast.If and st.body:
                    tests.append(st)
        for st in tests:
            attr = _tested_attr(st.test)
            if attr is not None and attr not in own:
                end = st.body[-1].end_lineno or st.body[-1].lineno
                out.append([st.body[0].lineno, end, MARK + "|".join(f"{b}.{attr}" for b in bases), bool(st.orelse)])
                if len(out) >= limit:
                    return out
    return out


def instance_guards(tree: ast.Module, imported: set, limit: int) -> list:
    """[[first line, last line, "<Class.attr", choice]] for the body of `if x.attr:` / `if x.attr and ...:` in a
    function that binds `x` once to a construction of a class it imports from the project (`engine = Engine(...)`,
    `with Engine(...) as engine:`; ACNet's `if engine.distributed:` with `Engine.__init__` setting
    `self.distributed = True` only under `torch.cuda.device_count() > 1`)."""
    out: list = []
    text = getattr(tree, "trnready_text", None)
    if text is not None and not _may_read_instance(text, imported):
        return out  # no `if x.attr` test on a name bound to a construction of an imported name: nothing to record
    for fn in statements(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn is not tree:
            continue
        made: dict = {}
        twice: set = set()
        tests: list = []
        for st in own_statements(fn.body):
            k = type(st)
            pairs = []
            if k is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name:
                pairs.append((st.targets[0].id, st.value))
            elif k in (ast.With, ast.AsyncWith):
                pairs += [(i.optional_vars.id, i.context_expr) for i in st.items if type(i.optional_vars) is ast.Name]
            for name, value in pairs:
                if name in made:
                    twice.add(name)
                if type(value) is ast.Call and type(value.func) is ast.Name and value.func.id in imported:
                    made[name] = value.func.id
                else:
                    made.setdefault(name, None)
            if k is ast.If and st.body:
                tests.append(st)
        for st in tests:
            parts = st.test.values if type(st.test) is ast.BoolOp and type(st.test.op) is ast.And else [st.test]
            for p in parts:
                if type(p) is ast.Attribute and type(p.value) is ast.Name and p.value.id not in twice \
                        and made.get(p.value.id):
                    end = st.body[-1].end_lineno or st.body[-1].lineno
                    out.append([st.body[0].lineno, end, f"{MARK}{made[p.value.id]}.{p.attr}", bool(st.orelse)])
                    if len(out) >= limit:
                        return out
                    break
    return out


def _may_read_instance(text: str, imported: set) -> bool:
    """A cheap look at the text (substring searches only): a construction of an imported name (`Name(`) and an
    `if` testing an attribute of something other than self."""
    return any(n + "(" in text for n in imported) and any(
        not text.startswith("self.", at + 3) for at in _finds(text, "if ") if at + 3 < len(text))


def _finds(text: str, word: str):
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


def _self_name(t) -> bool:
    return type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self"


def _tested_attr(test) -> str | None:
    """`self.attr` or `self.attr and ...` -> attr."""
    parts = test.values if type(test) is ast.BoolOp and type(test.op) is ast.And else [test]
    for p in parts:
        if isinstance(p, ast.Attribute) and _self_name(p):
            return p.attr
    return None
