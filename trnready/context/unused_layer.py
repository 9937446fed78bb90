"""unused-layer: a layer a module builds in a method and never uses."""
from __future__ import annotations

import ast

from .base import call_scope, enclosing_function, parent_of, predicate

# Names whose presence in a file means its layers may be reached without naming their attribute: attributes looked
# up by a computed name. (A loop over `self.modules()` that calls what it iterates counts too; one that only
# initialises weights, `for m in self.modules(): if isinstance(m, nn.Conv2d): ...`, does not.)
_DYNAMIC = frozenset({"getattr", "_modules", "__dict__", "vars", "setattr", "__getattr__"})
_ITERATORS = frozenset({"children", "named_children", "modules", "named_modules"})


def _runs_iterated_layers(ctx) -> bool:
    def compute(c) -> bool:
        for node in ast.walk(c.tree):
            if type(node) is not ast.For or type(node.iter) is not ast.Call:
                continue
            f = node.iter.func
            if type(f) is not ast.Attribute or f.attr not in _ITERATORS:
                continue
            targets = {n.id for n in ast.walk(node.target) if type(n) is ast.Name}
            if any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in targets
                   for st in node.body for n in ast.walk(st)):
                return True
        return False
    return ctx.fact("unused-layer:iterated", compute)


def _names_of_file(ctx) -> dict:
    """word -> how many times it is written in the file (attribute names, names, strings), once per file."""
    def compute(c) -> dict:
        out: dict = {}
        for node in ast.walk(c.tree):
            word = None
            if isinstance(node, ast.Attribute):
                word = node.attr
            elif isinstance(node, ast.Name):
                word = node.id
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                word = node.value
            if word is not None:
                out[word] = out.get(word, 0) + 1
        return out
    return ctx.fact("unused-layer:names", compute)


@predicate("unused-layer", kinds=("call", "method", "keyword", "reference"), effect="guard")
def unused_layer(ctx, hit) -> bool:
    """The match is (in) the torch.nn layer a method of a class assigns to an attribute of `self` (`self.upsample1 =
    nn.Upsample(scale_factor=4, mode='bilinear')`) that nothing else in the file names: no `self.upsample1(...)`, no
    string, no other attribute of that name. The layer is built and never run (three FlowNet variants of
    few-shot-vid2vid's flownet2 copy, fresh51). A file that reaches its layers without naming them (`getattr`,
    `_modules`, `vars`, a loop over `self.children()` / `self.modules()` that calls what it iterates) keeps the
    finding, and so does any other use of the attribute's name in the file."""
    call = hit.node
    for _ in range(2):  # `mode="bilinear"` of the layer's call: the keyword, then the call
        if type(call) is ast.Call or call is None:
            break
        call = parent_of(ctx, call)
    if type(call) is not ast.Call or ctx.tree is None:
        return False
    st = parent_of(ctx, call)
    if type(st) is not ast.Assign or st.value is not call or len(st.targets) != 1:
        return False
    t = st.targets[0]
    if type(t) is not ast.Attribute or type(t.value) is not ast.Name or t.value.id != "self":
        return False
    # a layer: a class of torch.nn (`nn.Upsample`, `nn.Embedding`), not any object kept on self (a GradScaler, a
    # device, a process group: those are often used from other files)
    resolver = ctx.resolver
    if not any(resolver.canonical(q).startswith("torch.nn.") for q in resolver.qualnames(call.func,
                                                                                      call_scope(ctx, call))):
        return False
    fn = enclosing_function(ctx, call)
    if fn is None or type(parent_of(ctx, fn)) is not ast.ClassDef:
        return False
    names = _names_of_file(ctx)
    if any(names.get(w) for w in _DYNAMIC) or _runs_iterated_layers(ctx):
        return False
    return names.get(t.attr, 0) == 1
