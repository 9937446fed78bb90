"""other-framework: a module written for another deep-learning framework (PaddlePaddle, OneFlow, MindSpore,
TensorFlow, ...) that never imports PyTorch."""
from __future__ import annotations

import ast

from .base import PYTHON_KINDS, imported_roots, predicate


def _framework_module(ctx) -> bool:
    def compute(c) -> bool:
        if c.tree is None:
            return False
        others = frozenset(c.values.get("other-frameworks", ()))
        # TensorFlow counts only in a folder a project names for it (dgcnn's `tensorflow/`: the TensorFlow version
        # beside the PyTorch one): elsewhere its modules mostly hold values the PyTorch code reads (tacotron2's
        # hparams)
        folders = frozenset(c.values.get("other-framework-dirs", ()))
        in_folder = bool(folders) and bool(set(c.path.lower().split("/")[:-1]) & folders)
        # ... and in a notebook, which no module imports: it is a program of its own (malaya-speech's TensorFlow
        # notebooks setting CUDA_VISIBLE_DEVICES for TensorFlow's GPU)
        if c.path.endswith(".ipynb"):
            others = others | frozenset(c.values.get("other-framework-notebook-modules", ()))
        if not others and not in_folder:
            return False
        # `import torch` then `del torch` (loaded first for its CUDA libraries, nerfbaselines' JAX wrappers): the
        # module keeps no PyTorch name to compute with
        deleted = frozenset(t.id for d in c.nodes(ast.Delete) for t in d.targets if type(t) is ast.Name)
        roots = imported_roots(c, deleted)
        # in such a folder, its helpers that import no framework at all (NumPy data providers) belong to that port
        return "torch" not in roots and (bool(roots & others) or in_folder)
    return ctx.fact("other-framework", compute)


@predicate("other-framework", kinds=PYTHON_KINDS)
def other_framework_module(ctx, hit) -> bool:
    """The file imports one of `[context.values] other-frameworks` (`import paddle`, `import oneflow as torch`) and
    nothing from PyTorch: its `.cuda()`, `"cuda"` strings and AMP calls belong to that framework's own device API,
    which a port to TorchNeuron does not touch (projects that ship one model for several frameworks keep each in
    its own folder). Imports are read by module name, not by the name they are bound to, so `import oneflow as
    torch` is OneFlow. A module that imports both, a converter from one framework to the other, stays; an `import torch`
    deleted again (`del torch`: imported only so its CUDA libraries load before JAX's) is no PyTorch import. A
    notebook importing TensorFlow or Keras (`other-framework-notebook-modules`) and nothing from PyTorch is such a
    module too: no PyTorch code reads its values."""
    return _framework_module(ctx)
