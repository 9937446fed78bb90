import torch


def load(use_marlin, supported):
    if use_marlin and not supported:
        raise ValueError(f"compute capability {torch.cuda.get_device_capability()} is below 8.0")
    major, _ = torch.cuda.get_device_capability()  # expect: TRN243
    if major < 8:
        raise ValueError("too old: %d" % major)


def out_of_memory():
    raise torch.cuda.OutOfMemoryError("out of memory")  # expect: TRN243


def check(device):
    message = f"{torch.cuda.get_device_name(device)} is not supported"  # expect: TRN243
    raise RuntimeError(message)
