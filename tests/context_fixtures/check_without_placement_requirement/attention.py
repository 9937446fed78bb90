import torch
from diffusers.utils.import_utils import is_xformers_available

if is_xformers_available():
    import xformers
    import xformers.ops
else:
    xformers = None


class Block(torch.nn.Module):
    def enable_memory_efficient_attention(self, enabled):
        if enabled:
            if not is_xformers_available():
                raise ModuleNotFoundError("install xformers", name="xformers")
            elif not torch.cuda.is_available():
                raise ValueError("memory efficient attention needs a GPU")
            else:
                xformers.ops.memory_efficient_attention(torch.randn(1, 2, 4), torch.randn(1, 2, 4), torch.randn(1, 2, 4))
        self.enabled = enabled

    def enable_with_own_check(self, enabled):
        # look-alike: the test before the CUDA query holds on Neuron too (a package every host may have)
        if not is_torch_available():
            raise ModuleNotFoundError("install torch")
        elif not torch.cuda.is_available():
            raise ValueError("needs a GPU")
        self.enabled = enabled


def is_torch_available():
    return True


def start():
    # look-alike: a gate of the whole program, no package test before it
    if not torch.cuda.is_available():
        raise RuntimeError("a GPU is required")
    return Block()
