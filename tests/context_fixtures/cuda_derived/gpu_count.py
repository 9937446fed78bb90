import argparse

import torch


def main(model, local_rank):
    if local_rank == -1:
        n_gpu = torch.cuda.device_count()
    else:
        n_gpu = 1
    if n_gpu > 0:
        torch.cuda.manual_seed_all(0)
    if local_rank != -1:
        model = torch.nn.parallel.DistributedDataParallel(model)
    elif n_gpu > 1:
        model = torch.nn.DataParallel(model)
    if n_gpu <= 1:
        return model
    else:
        torch.cuda.synchronize()
    return model


def with_args(args, model):
    args.n_gpu = torch.cuda.device_count()
    if args.n_gpu > 1:
        model = torch.nn.DataParallel(model)
    return model


def from_option(model):
    parser = argparse.ArgumentParser()
    parser.add_argument("--world", type=int, default=2)
    opts = parser.parse_args()
    if opts.world > 1:
        model = torch.nn.DataParallel(model)
    opts.world = torch.cuda.device_count()
    return model


def counted(model, gpus):
    workers = torch.cuda.device_count()
    workers += 2
    if workers > 1:
        model = torch.nn.DataParallel(model)
    return model
