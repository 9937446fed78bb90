import argparse
import os

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--world_size", type=int, default=1)
    args = parser.parse_args()
    args.distributed = False
    if not torch.cuda.is_available():
        device = torch.device("cpu")
    else:
        device = torch.device("cuda")
        if "WORLD_SIZE" in os.environ:
            args.world_size = int(os.environ["WORLD_SIZE"])
            args.distributed = args.world_size > 1
    args.sync = False
    if args.world_size > 4:
        args.sync = args.world_size > 8
    if args.distributed:
        from apex.parallel import DistributedDataParallel
        print(DistributedDataParallel, device)
    if args.sync:
        torch.cuda.synchronize()
