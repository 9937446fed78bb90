import numpy as np
import torch


def beta_schedule(n, start, end):
    betas = torch.linspace(start ** 0.5, end ** 0.5, n, dtype=torch.float64) ** 2
    betas = np.clip(betas, 0, 0.999)
    return betas.numpy()


def _normalize(bank):
    return bank / bank.sum(dim=-1, keepdim=True)


def filterbank(n_fft, n_mels):
    freqs = torch.linspace(0, 1, n_fft, dtype=torch.float64)
    ramps = freqs.unsqueeze(0) - torch.linspace(0, 1, n_mels).unsqueeze(1)
    weights = _normalize(ramps.clamp_min(0))
    return weights.to(dtype=torch.float32).unsqueeze(0)


# look-alikes: returned in float64, handed to a helper that keeps it, cast where the function names a device


def raw_schedule(n):
    return torch.linspace(0, 1, n, dtype=torch.float64).clamp(0, 0.999)


CACHE = {}


def _remember(bank):
    CACHE["bank"] = bank
    return bank


def cached_bank(n):
    bank = torch.linspace(0, 1, n, dtype=torch.float64)
    bank = _remember(bank)
    return bank.float()


def table_on(n, device):
    table = torch.arange(n, dtype=torch.float64)
    return table.float().to(device)
