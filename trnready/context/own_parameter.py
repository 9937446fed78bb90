"""own-parameter: the keyword is a parameter of a function the same file defines."""
from __future__ import annotations

from .base import predicate


@predicate("own-parameter", kinds=("keyword",))
def own_parameter(ctx, hit) -> bool:
    """A keyword match (`key_padding_mask=m`) in a file that defines a function taking a
    parameter of that name. The file is passing the keyword through its own API (a module
    that wraps attention and forwards the mask), so the call the keyword reaches is not
    necessarily the library one the rule is about; the library call, where it is made, is
    matched on its own. A value stored under the name (`{"gpus_per_node": 8}`) is not passed through
    such an API, so it stays a finding."""
    return not hit.stored and hit.name in ctx.index.param_names
