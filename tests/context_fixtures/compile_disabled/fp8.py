import torch

try:
    cuda_arch = int("".join(str(i) for i in torch.cuda.get_device_capability()))
except:
    cuda_arch = 0


def f(x):
    if cuda_arch >= 89:
        return x.cuda()
    return x


@torch.compile(mode="max-autotune-no-cudagraphs", dynamic=False, disable=cuda_arch < 89)
def g(x):
    return x * 2


@torch.compile(mode="max-autotune-no-cudagraphs", disable=not torch.cuda.is_available())
def h(x):
    return x * 2


@torch.compile(mode="max-autotune", disable=cuda_arch >= 89)
def k(x):
    return x * 2


def build(model, debug):
    return torch.compile(model, mode="max-autotune", disable=debug)
