import torch
import torch_neuronx

try:
    import torch_xla.core.xla_model as xm

    HAS_XLA = True
except ImportError:
    HAS_XLA = False


def train(model):
    if HAS_XLA:
        device = xm.xla_device()
    else:
        device = torch.device("cpu")
    return torch_neuronx.trace(model.to(device), torch.ones(1))
