import sys

import torch
from deepspeed.checkpoint import DeepSpeedCheckpoint

if __name__ == "__main__":
    torch.distributed.init_process_group("nccl")
    print(DeepSpeedCheckpoint(sys.argv[1]).tp_degree)
