import torch
from runner import Trainer


def scale(x):
    return x.to(torch.float64)


if __name__ == "__main__":
    Trainer(model=torch.nn.Linear(2, 2)).train()
