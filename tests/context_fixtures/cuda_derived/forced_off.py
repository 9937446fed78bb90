import os

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, args, model):
        self.model = model.to(args.device)
        if args.distributed:
            self.model = nn.parallel.DistributedDataParallel(self.model, device_ids=[args.local_rank])


def main(args, model):
    num_gpus = int(os.environ["WORLD_SIZE"]) if "WORLD_SIZE" in os.environ else 1
    args.distributed = num_gpus > 1
    if not args.no_cuda and torch.cuda.is_available():
        args.device = "cuda"
    else:
        args.distributed = False
        args.device = "cpu"
    trainer = Trainer(args, model)
    return trainer


def other(opts, model):
    opts.parallel = int(os.environ.get("WORLD_SIZE", 1)) > 1
    print(opts.parallel)  # read before the check: the earlier value is seen
    if torch.cuda.is_available():
        opts.device = "cuda"
    else:
        opts.parallel = False
    if opts.parallel:
        model = model.cuda()
    return model


def no_else(cfg, model):
    # an `if` without `else` whose body Neuron always runs forces the flag off just the same
    cfg.distributed = int(os.environ.get("WORLD_SIZE", 1)) > 1
    if not torch.cuda.is_available():
        cfg.distributed = False
    if cfg.distributed:
        torch.cuda.set_device(cfg.local_rank)
    return model


def no_else_never(conf, model):
    # look-alike: a body Neuron never runs leaves the earlier value in place
    conf.multi = int(os.environ.get("WORLD_SIZE", 1)) > 1
    if torch.cuda.is_available():
        conf.multi = False
    if conf.multi:
        torch.cuda.set_device(conf.local_rank)
    return model
