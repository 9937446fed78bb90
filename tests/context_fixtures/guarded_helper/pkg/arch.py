import torch


def _infer_nvidia_arch(device_id):
    major, minor = torch.cuda.get_device_capability(device_id)
    return f"sm_{major}{minor}"


def _infer_amd_arch(device_id):
    return torch.cuda.get_device_properties(device_id).gcnArchName


def _memory(device_id):
    return torch.cuda.memory_allocated(device_id)


def _named(device_id):
    return torch.cuda.get_device_name(device_id)


def _shared(device_id):
    return torch.cuda.max_memory_allocated(device_id)


def infer_arch(device, device_id=0):
    if device == "cuda":
        return _infer_amd_arch(device_id) if torch.version.hip else _infer_nvidia_arch(device_id)
    return _memory(device_id)


def report(device_id):
    if torch.cuda.is_available():
        return _named(device_id), _shared(device_id)
    return getattr(torch, "_named", None)


def public_helper(device_id):
    return torch.cuda.mem_get_info(device_id)


def use_public(device_id):
    if torch.cuda.is_available():
        return public_helper(device_id)
    return None
