"""not-option-default: a value stored under a keyword's name anywhere but as a command-line option's default."""
from __future__ import annotations

import ast

from .base import parent_of, predicate


@predicate("not-option-default", kinds=("keyword",))
def not_option_default(ctx, hit) -> bool:
    """Holds unless the match is the literal `default=` of an argparse option the program defines
    (`parser.add_argument("--num-gpus", type=int, default=1)`, nnUNet's `-num_gpus`). For a matcher that is
    about what a run does when nobody passes the option, only that default is the setting: a run that passes no
    flag takes it, so it is the request the program makes. The same name elsewhere says nothing of the kind: a
    call keyword (`launch(main, num_gpus=args.num_gpus)`) forwards a count decided somewhere else, and a value
    stored in a dict or on an attribute (`{"ngpus": world_size}` in a logged dict, `args.n_gpu = 1` after a
    device was already chosen) records a count rather than asking for GPUs."""
    if not hit.stored:
        return True
    kw = parent_of(ctx, hit.node)
    if type(kw) is not ast.keyword or kw.arg != "default":
        return True
    call = parent_of(ctx, kw)
    return not (type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "add_argument")
