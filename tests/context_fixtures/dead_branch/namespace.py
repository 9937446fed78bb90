import torch

USE_SYNC = False


def configure(cfg):
    globals().update(cfg)


def step():
    if USE_SYNC:
        torch.cuda.synchronize()
