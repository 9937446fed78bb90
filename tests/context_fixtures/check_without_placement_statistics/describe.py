import torch


def run_metadata():
    name = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return {"gpu": name}


def save_state(path):
    state = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    torch.save({"cuda_rng": state}, path)


def shown():
    label = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu"
    total = torch.cuda.get_device_properties(0).total_memory if torch.cuda.is_available() else 0
    return label, total


def index():
    return torch.cuda.current_device() if torch.cuda.is_available() else "cpu"
