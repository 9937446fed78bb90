"""not-lightning-precision: a stored precision value the file never hands to a Lightning Trainer or Fabric."""
from __future__ import annotations

import ast

from .base import imported_name, predicate

# the packages whose Trainer / Fabric read `precision` as the autocast switch
_LIGHTNING = ("lightning.", "pytorch_lightning.", "lightning_fabric.")


def _reads(value, key: str) -> bool:
    """`precision`, `args.precision`, `cfg["precision"]`: a value read under the keyword's own name."""
    if isinstance(value, ast.Name):
        return value.id == key
    if isinstance(value, ast.Attribute):
        return value.attr == key
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant):
        return value.slice.value == key
    return False


def _lightning_reads(ctx, key: str) -> bool:
    for call in ctx.calls():
        name, bound = imported_name(ctx, call.func)
        if not bound or not name.startswith(_LIGHTNING):
            continue
        if name.endswith(".from_argparse_args"):  # Trainer.from_argparse_args(args): every flag reaches it
            return True
        if any(k.arg == key and _reads(k.value, key) for k in call.keywords):
            return True
    return False


@predicate("not-lightning-precision", kinds=("keyword",))
def not_lightning_precision(ctx, hit) -> bool:
    """A value stored under the name `precision` (`parser.add_argument("--precision", default="fp16")`,
    `cfg["precision"] = "16"`) in a file that passes no value read under that name (`precision=args.precision`)
    to a Lightning Trainer or Fabric, and calls no `Trainer.from_argparse_args`. "fp16" is also a precision of
    TensorRT engine builders, ONNX exporters and inference scripts, where it is a weight dtype and not Lightning's
    float16 autocast. A keyword passed straight to a call is left to the call matchers (always holds)."""
    if not hit.stored:
        return True
    return not _lightning_reads(ctx, "precision")
