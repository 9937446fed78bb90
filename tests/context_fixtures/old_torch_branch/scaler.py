import torch
from packaging import version


def make_scaler(device, enabled):
    if version.parse(torch.__version__) < version.parse("2.4.0"):
        return torch.cuda.amp.GradScaler(enabled=enabled)
    else:
        return torch.GradScaler(device, enabled=enabled)


def make_scaler_new_first(device, enabled):
    if version.parse(torch.__version__) >= version.parse("2.4"):
        return torch.cuda.amp.GradScaler(enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)


def plain_string(enabled):
    if torch.__version__ < "2.4":
        return torch.cuda.amp.GradScaler(enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)


TORCH_VERSION = tuple(int(x) for x in torch.__version__.split(".")[:2])


def tuple_flag(enabled):
    if TORCH_VERSION >= (2, 4):
        scaler = None
    else:
        scaler = torch.cuda.amp.GradScaler(enabled=enabled)
    return scaler
