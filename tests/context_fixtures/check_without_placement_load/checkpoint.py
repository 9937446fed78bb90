import torch


def load_checkpoint(fpath):
    map_location = None if torch.cuda.is_available() else 'cpu'
    checkpoint = torch.load(fpath, map_location=map_location)
    return checkpoint


def load_model(fname, cpu=False):
    if cpu or not torch.cuda.is_available():
        state_dict = torch.load(fname, map_location=torch.device("cpu"))
    else:
        state_dict = torch.load(fname)
    return state_dict


def pick(fname):
    device = None if torch.cuda.is_available() else 'cpu'
    ckpt = torch.load(fname, map_location=device)
    return ckpt.to(device)


def reversed_arms(fname):
    if torch.cuda.is_available():
        return torch.load(fname, map_location="cuda")
    return torch.load(fname)
