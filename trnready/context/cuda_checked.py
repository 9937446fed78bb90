"""cuda-checked: inside the body of a CUDA check."""
from __future__ import annotations

from .base import predicate


@predicate("cuda-checked", kinds=("reference",))
def cuda_checked(ctx, hit) -> bool:
    """A reference inside the body of `if torch.cuda.is_available():`, `if x.device.type == "cuda":`,
    `if x.is_cuda:`, `if args.cuda:` or `if use_gpu:` (a test that CUDA is present; a negated test
    is not). For a rule whose fix is "put this behind a CUDA check", the code already does what the
    fix asks. The indexer records these references while it walks the file."""
    return id(hit.node) in ctx.index.cuda_guarded
