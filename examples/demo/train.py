"""Demo training script written for CUDA GPUs (the kind of code teams bring to Trainium).

Nothing here is imported or run by trnready; it is only read.
"""
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast

from model import TinyUNet

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
UPSAMPLE_MODE = "bilinear"

torch.backends.cudnn.benchmark = True


def setup(rank: int, world_size: int) -> None:
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)


def train(rank: int = 0, world_size: int = 1) -> None:
    setup(rank, world_size)
    model = TinyUNet().cuda()
    model = torch.compile(model, backend="inductor", mode="max-autotune", dynamic=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scaler = GradScaler()
    for step in range(10):
        x = torch.randn(4, 3, 64, 64, device=DEVICE)
        with autocast():
            y = model(x)
            y = F.interpolate(y, scale_factor=2, mode=UPSAMPLE_MODE)
            loss = y.float().pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        # F.interpolate(y, mode="bicubic") in a comment is never reported
        stats = loss.detach().double()


if __name__ == "__main__":
    train()
