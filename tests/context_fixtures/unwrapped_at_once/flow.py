import torch
from torch import nn

from raft import RAFT


def load_raft(args, device):
    model = torch.nn.DataParallel(RAFT(args))
    model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    model = model.module
    model.to(device)
    return model.eval()


def load_raft_eval(args):
    net = nn.DataParallel(RAFT(args))
    missing = net.load_state_dict(torch.load(args.ckpt), strict=False)
    net.eval()
    net = net.module
    return net, missing


def run_wrapped(args, frames):
    model = torch.nn.DataParallel(RAFT(args))
    model.load_state_dict(torch.load(args.ckpt))
    flow = model(frames)
    model = model.module
    return flow


def keep_wrapped(args):
    model = torch.nn.DataParallel(RAFT(args))
    model.load_state_dict(torch.load(args.ckpt))
    return model


def unwrap_other(args, other):
    model = torch.nn.DataParallel(RAFT(args))
    model = other.module
    return model
