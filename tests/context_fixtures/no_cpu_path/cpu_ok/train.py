import torch

use_cuda = torch.cuda.is_available()


def main(model, loader):
    if use_cuda:
        model = model.cuda()
    for inputs, targets in loader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        model(inputs)
