"""cuda-method-body: the body of a class's own `cuda()` method, which implements the CUDA move it is named for."""
from __future__ import annotations

import ast

from .base import enclosing_function, parent_of, predicate


@predicate("cuda-method-body")
def cuda_method_body(ctx, hit) -> bool:
    """A CUDA device match (category `cuda-device`) in the body of a method named `cuda` of a project class
    (`def cuda(self): return self.to("cuda")`, `return Rigid3Array.from_tensor_4x4(self.to_tensor_4x4().cuda())`,
    `self._device = torch.device(torch.cuda.current_device()); return super().cuda()`). Such a method mirrors
    `Tensor.cuda()` / `Module.cuda()` for the project's own type: it means CUDA by definition and is right as it
    is. What a port changes are the calls of it (`mesh.cuda()`), which are reported where they are; the device
    moves of other methods (`to`, `cpu`, a `neuron()` the port may add) are not affected."""
    if hit.rule.category != "cuda-device":
        return False
    fn = enclosing_function(ctx, hit.node)
    return fn is not None and fn.name == "cuda" and _method(fn) and isinstance(parent_of(ctx, fn), ast.ClassDef)


def cuda_method_at(ctx, pos: tuple, category: str) -> bool:
    """The predicate at a place (line, column offset) of a file read without its index: a linked finding at the
    call where the value enters (`return self.to("cuda", non_blocking)` followed into the class's own `to`, which
    builds a torch.device) sits in the `cuda()` method as a finding written there would."""
    if category != "cuda-device" or ctx.tree is None:
        return False
    line = pos[0]
    for st in ctx.tree.body:
        if type(st) is ast.ClassDef and st.lineno <= line <= (st.end_lineno or 0):
            return any(isinstance(fn, _FUNCS) and fn.name == "cuda" and fn.lineno <= line <= (fn.end_lineno or 0)
                       and _method(fn) for fn in st.body)
    return False


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _method(fn) -> bool:
    params = fn.args.posonlyargs + fn.args.args
    return bool(params) and params[0].arg in ("self", "cls")
