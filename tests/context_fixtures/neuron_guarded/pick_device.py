import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
if torch.cuda.is_available():
    dev = torch.device("cuda")
else:
    dev = torch.device("cpu")


def place(x):
    x = x.cuda() if torch.cuda.is_available() else x
    return x.to(device)
