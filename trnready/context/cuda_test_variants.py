"""cuda-test-variants: a CUDA check that only decides whether a test's parameters list CUDA variants too."""
from __future__ import annotations

import ast

from .base import parent_of, predicate
from ..scope import classify

_ARMS = (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.Dict)


@predicate("cuda-test-variants", effect="guard")
def cuda_test_variants(ctx, hit) -> bool:
    """In a test file, the match lies in the condition of `A if <check> else B` inside the arguments of a
    decorator of a test class or function, whose arms are both literal collections
    (`@parameterized_class(("device",), [("cpu",), ("cuda",)] if torch.cuda.is_available() else [("cpu",)])`).
    The check only adds the CUDA parameter sets where a GPU exists; on a Neuron machine the other arm runs, the
    CPU variants, and nothing of the check reaches a device. The CUDA variants' bodies are findings of their own
    where they name the device."""
    if not ctx.fact("cuda-test-variants:scope", lambda c: bool(c.path) and classify(c.path) == "test"):
        return False
    node, test_of = hit.node, None
    while True:
        up = parent_of(ctx, node)
        if up is None or isinstance(up, ast.stmt) and not isinstance(up, (ast.ClassDef, ast.FunctionDef,
                                                                          ast.AsyncFunctionDef)):
            return False
        if type(up) is ast.IfExp and node is up.test and test_of is None:
            if not (isinstance(up.body, _ARMS) and isinstance(up.orelse, _ARMS)):
                return False
            test_of = up
        if isinstance(up, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            return test_of is not None and any(node is d for d in up.decorator_list) and type(node) is ast.Call
        if isinstance(up, (ast.Lambda, ast.comprehension)):
            return False
        node = up
