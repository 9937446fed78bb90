import torch


def compile_frozen(model, x):
    previous = torch._inductor.config.freezing
    torch._inductor.config.freezing = True
    try:
        return torch.compile(model)(x)
    finally:
        torch._inductor.config.freezing = previous


def compile_unrolled(model, x):
    previous = torch._inductor.config.unroll_reductions_threshold
    try:
        return torch.compile(model)(x)
    finally:
        torch._inductor.config.unroll_reductions_threshold = 64
