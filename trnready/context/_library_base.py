"""Whether a class's bases are another library's classes, for a parameter default a method hands to super().

`def _setup_distributed(self, launcher=None, backend="nccl", **kw): super()._setup_distributed(launcher, backend)`
in a subclass of a library's strategy: the default is the value the library's method receives whenever the caller
leaves it out, and the link step, which follows forwarded defaults through the project's own functions, cannot
follow it into the library. The default is then the place a port changes. A base class the project defines (in
the file, under a relative import or in one of its own packages) is followed by the link step, so the default
stays unreported here."""
from __future__ import annotations

import ast


def library_bases(ctx, scope) -> bool:
    """Every base of the class whose body is `scope` resolves to an imported name outside the project."""
    bases = getattr(scope, "bases", None) or ()
    if not bases:
        return False
    own = ctx.project.own_packages
    for b in bases:
        if not isinstance(b, (ast.Name, ast.Attribute)):
            return False
        names = ctx.resolver.qualnames(b, scope.parent)
        if not names:
            return False  # a class of this file, or nothing the resolver can name
        for n in names:
            n = ctx.resolver.canonical(n)
            if n.startswith(".") or (own and n.split(".", 1)[0] in own) or n.split(".", 1)[0] in ("builtins", "object"):
                return False
    return True
