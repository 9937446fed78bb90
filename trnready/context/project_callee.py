"""project-callee: a keyword passed to a class or function the scanned project defines itself."""
from __future__ import annotations

import ast

from .base import call_scope, parent_of, predicate


def callee_names(ctx, call) -> tuple:
    """What the call calls, as resolved names: the function, or the class of the instance called."""
    scope = call_scope(ctx, call)
    resolver = ctx.resolver
    names = tuple(resolver.canonical(q) for q in resolver.qualnames(call.func, scope))
    if not names:
        names = tuple(resolver.canonical(c) for c in resolver.instance_class(call.func, scope))
    return names


@predicate("project-callee", kinds=("keyword",))
def project_callee(ctx, hit) -> bool:
    """A keyword match (`src_key_padding_mask=mask`) in a call whose callee resolves to the project's own code:
    a class or function imported from one of its packages (`from speechbrain.lobes.models.transformer.Transformer
    import TransformerEncoder`, then `self.encoder(x, src_key_padding_mask=m)`), or from a relative import. The
    keyword matcher is a fallback for callees nobody can name; here the callee is known and is not the library,
    and the library call it makes inside is matched where it is written (or followed by the link step). A callee
    that does not resolve, or resolves to another library, keeps the finding."""
    if hit.stored:
        return False
    kw = parent_of(ctx, hit.node)
    call = parent_of(ctx, kw) if isinstance(kw, ast.keyword) else None
    if not isinstance(call, ast.Call):
        return False
    names = callee_names(ctx, call)
    if not names:
        return False
    own = ctx.project.own_packages
    return all(n.startswith(".") or (own and n.split(".", 1)[0] in own) for n in names)
