"""not-handed-to-rule-call: a stored value the file never passes, under its own name, to a call its rule matches."""
from __future__ import annotations

from .base import imported_name, predicate
from .not_lightning_precision import _reads


@predicate("not-handed-to-rule-call", kinds=("keyword",))
def not_handed_to_rule_call(ctx, hit) -> bool:
    """A value stored under a keyword name (`parser.add_argument("--mixed_precision", default="fp16")`,
    `cfg["mixed_precision"] = "fp16"`) in a file that passes no value read under that name
    (`mixed_precision=args.mixed_precision`) to one of the calls the same rule matches by name (TRN254:
    `accelerate.Accelerator`). The same word names other things elsewhere (an exporter's weight dtype, a report
    field), and the option only switches on what the rule describes once that call receives it. A keyword passed
    straight to a call is left to the rule's call matchers (the predicate holds)."""
    if not hit.stored:
        return True
    wanted = {n for m in hit.rule.matchers if m.kind == "call" for n in m.names}
    if not wanted:
        return True
    canon = ctx.resolver.canonical
    wanted |= {canon(n) for n in wanted}
    for call in ctx.calls():
        if not any(k.arg == hit.name and _reads(k.value, hit.name) for k in call.keywords):
            continue
        name, bound = imported_name(ctx, call.func)
        if bound and name in wanted:
            return False
    return True
