"""cuda-backend-class: the CUDA implementation of a device abstraction (`class CudaAccelerator(BaseAccelerator)`)."""
from __future__ import annotations

import ast

from .base import name_globs, predicate
from .tpu_only_code import _enclosing_named


@predicate("cuda-backend-class", effect="guard")
def cuda_backend_class(ctx, hit) -> bool:
    """A match inside a class named as the CUDA implementation of a device abstraction (`cuda-backend-classes`,
    globs over the class name: `CUDAAccelerator`, `CudaAccelerator`, `CUDA_Accelerator`, `Cuda*Backend`,
    `CudaPlatform`) that derives from a base class. Frameworks that run on several devices (DeepSpeed's and
    ColossalAI's accelerators, Lightning's `CUDAAccelerator`, an inference engine's `CudaAttentionBackend`) keep one
    such subclass per device and pick it at run time (`if torch.cuda.is_available(): CudaAccelerator()`). On a
    Trainium host the CUDA one is never picked, so its `torch.cuda.*` calls, nccl default and flash-attn import are
    not what the port changes: the port adds a Neuron implementation beside it, and the code that picks the class
    stays reported. A class with no base (the program's only device code) is not judged."""
    globs = name_globs(ctx, "cuda-backend-classes")
    if globs is None:
        return False
    for d in _enclosing_named(ctx, hit.node):
        if isinstance(d, ast.ClassDef) and d.bases and globs.match(d.name) is not None:
            return True
    return False
