import argparse

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
parser.add_argument("--local_rank", type=int, default=0)
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()

model = torch.nn.Linear(2, 2)
a = DDP(model, device_ids=[args.local_rank] if args.cuda else None)
b = DDP(model, device_ids=None if not args.cuda else [args.local_rank])
c = DDP(model, device_ids=[args.local_rank] if args.local_rank >= 0 else None)
d = DDP(model, device_ids=[args.local_rank])
