import torch

if torch.cuda.is_available():
    device0 = torch.device("cuda:0")
else:
    device0 = torch.device("cpu")

device = torch.device("cuda")
spare = "cuda"
model = torch.nn.Linear(2, 2).cuda()
used = torch.device("cuda")


def run(x):
    local = torch.device("cuda")
    read = torch.device("cuda")
    moved = x.cuda()
    return x.to(read).to(used).to(device0)


def closure(x):
    dev = "cuda"

    def inner():
        return x.to(dev)
    return inner


def update(batches, model):
    device = "cuda" if batches[0].is_cuda else "cpu"
    picked = "cuda" if batches[0].is_cuda else "cpu"
    return model(batches[0].to(picked))
