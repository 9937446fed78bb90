import torch
from torch import Tensor, is_tensor


def time_embedding(sample, timestep):
    timesteps = timestep
    if not torch.is_tensor(timesteps):
        is_mps = sample.device.type == "mps"
        if isinstance(timestep, float):
            dtype = torch.float32 if is_mps else torch.float64
        else:
            dtype = torch.int32 if is_mps else torch.int64
        timesteps = torch.tensor([timesteps], dtype=dtype, device=sample.device)
    elif len(timesteps.shape) == 0:
        timesteps = timesteps[None].to(sample.device)
    return timesteps


def controlnet_time(sample, timestep):
    if not isinstance(timestep, torch.Tensor):
        timestep = torch.tensor([timestep], dtype=torch.float64 if isinstance(timestep, float) else torch.int64)
    return timestep


def else_arm(sample, t):
    if is_tensor(t):
        return t.to(sample.device)
    else:
        if isinstance(t, (int, float)):
            return torch.tensor([t], dtype=torch.float64, device=sample.device)
    return t


def both_in_one_test(t):
    if not isinstance(t, Tensor) and isinstance(t, float):
        return torch.tensor(t, dtype=torch.double)
    return t


def made_always(n, device):
    return torch.zeros(n, dtype=torch.float64, device=device)  # expect: TRN121


def every_non_tensor_value(data, device):
    out = {}
    for k, t in data.items():
        if not torch.is_tensor(t):
            out[k] = torch.tensor(t, dtype=torch.double)  # expect: TRN121
        else:
            out[k] = t.to(dtype=torch.double)  # (a place of the finding above: one per function)
    return out


def float_check_alone(t):
    if isinstance(t, float):
        return torch.tensor(t, dtype=torch.float64)  # expect: TRN121
    return t


def the_tensor_arm(t):
    if not torch.is_tensor(t):
        return t
    elif isinstance(t, float):
        return t
    return t.to(torch.float64)  # expect: TRN121


def float_arm_false(t):
    if not torch.is_tensor(t):
        if isinstance(t, float):
            return t
        return torch.tensor(t, dtype=torch.float64)  # expect: TRN121
    return t
