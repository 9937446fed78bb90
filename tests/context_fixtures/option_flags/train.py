import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--gpu", action="store_true")
    args = parser.parse_args()
    args.cuda = not args.no_cuda and torch.cuda.is_available()
    net = torch.nn.Linear(2, 2)
    if args.cuda:
        net = net.cuda()
    if args.gpu:
        net = net.cuda()
    train(args, net)


def train(args, net):
    for data in range(3):
        if args.cuda:
            data = data.cuda()
        net(data)


def example():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use-cuda", action="store_true")
    args = parser.parse_args()
    args.use_cuda = args.use_cuda and torch.cuda.is_available()
    model = torch.nn.Linear(2, 2)
    if args.use_cuda:
        model = model.cuda()
    return model
