"""help-text: an environment variable's name written as the help text of a command-line option."""
from __future__ import annotations

import ast

from .base import parent_of, predicate

# keywords whose string only describes something to a reader (argparse, click, typer, dataclass field metadata)
_TEXT_KEYWORDS = frozenset({"help", "description", "epilog", "usage", "metavar", "doc"})


@predicate("help-text", kinds=("env",))
def help_text(ctx, hit) -> bool:
    """The variable's name is the whole string of a describing keyword (`parser.add_argument("--gpus",
    help="CUDA_VISIBLE_DEVICES")`, `description=`, `metavar=`): it tells a reader what the option feeds and reads or
    sets nothing. Where the program does set the variable (`os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus`), that
    line is the finding. Uformer's test scripts put the name in the help text of `--gpus` (fresh31)."""
    node = hit.node
    if type(node) is not ast.Constant or not isinstance(node.value, str):
        return False
    parent = parent_of(ctx, node)
    return type(parent) is ast.keyword and parent.arg in _TEXT_KEYWORDS
