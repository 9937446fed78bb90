"""unread-attribute: a value stored in a private attribute that nothing in the file reads."""
from __future__ import annotations

import ast

from .base import predicate


def _read_attributes(ctx) -> frozenset:
    """Attribute names the file loads (`x._dtype` anywhere), the strings it holds (`getattr(self, "_dtype")`), and
    "*" when it reaches attributes by a computed name (`__dict__`, `vars(...)`, `getattr(obj, name)`), which may
    read any of them."""
    def compute(ctx):
        out = set()
        for node in ctx.nodes(ast.Attribute):
            if type(node.ctx) is ast.Load:
                out.add(node.attr)
                if node.attr == "__dict__":
                    out.add("*")
        for node in ctx.nodes(ast.Constant):
            if type(node.value) is str and node.value.isidentifier():
                out.add(node.value)
        for node in ctx.nodes(ast.Call):
            f = node.func
            if type(f) is ast.Name and (f.id == "vars" or f.id in ("getattr", "hasattr") and (
                    len(node.args) < 2 or type(node.args[1]) is not ast.Constant)):
                out.add("*")
        return frozenset(out)
    return ctx.fact("unread-attribute-reads", compute)


@predicate("unread-attribute", kinds=("reference",))
def unread_attribute(ctx, hit) -> bool:
    """The reference sits in the value of a one-target assignment to a private attribute (`self._dtype =
    torch.float32 if mps else torch.float64`) that nothing in the file reads: no `._dtype` load on any object, no
    string naming it, no access by a computed name (`__dict__`, `vars`, `getattr(obj, name)`). The value is
    computed and stored, then never used, so it decides nothing the port must change. Only a name with a leading
    underscore counts: by convention other modules do not read it, while a public attribute may well be read
    elsewhere. Only references (a dtype, a tensor type), which do nothing by being named; a call in the value
    still runs."""
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    st = ctx.statement_at(pos)
    if type(st) is ast.Assign and len(st.targets) == 1:
        target, value = st.targets[0], st.value
    elif type(st) is ast.AnnAssign and st.value is not None:
        target, value = st.target, st.value
    else:
        return False
    if type(target) is not ast.Attribute or not target.attr.startswith("_") or target.attr.startswith("__"):
        return False
    if not (value.lineno, value.col_offset) <= pos < (value.end_lineno, value.end_col_offset):
        return False
    reads = _read_attributes(ctx)
    return target.attr not in reads and "*" not in reads
