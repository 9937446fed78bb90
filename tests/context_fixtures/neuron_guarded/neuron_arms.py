import torch
from .imports import is_neuron_available, is_npu_available


def device_count():
    if is_npu_available():
        n = torch.npu.device_count()
    elif is_neuron_available():
        n = torch.neuron.device_count()
    else:
        n = torch.cuda.device_count()
    return n


def pick():
    device = "neuron" if torch.neuron.is_available() else "cuda"
    if not is_neuron_available():
        return torch.cuda.current_device()
    return device


def looks_alike():
    if is_neuron_model():
        torch.cuda.synchronize()
    else:
        torch.cuda.empty_cache()
