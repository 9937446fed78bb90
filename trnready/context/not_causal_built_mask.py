"""not-causal-built-mask: the complement of causal-built-mask, for the rule that reports causal masks."""
from __future__ import annotations

from .base import predicate
from .causal_built_mask import _causal


@predicate("not-causal-built-mask", kinds=("call",))
def not_causal_built_mask(ctx, hit) -> bool:
    """The mask argument is NOT, by the evidence `causal-built-mask` reads, a plain causal mask built in the file.
    TRN174 (a causal mask passed without the causal flag: a mechanical change) uses it on the same matchers that
    TRN171/TRN172/TRN173 guard with `causal-built-mask`, so one attention call is reported once, by one of the two
    rules, and never by both or neither."""
    return not _causal(ctx, hit)
