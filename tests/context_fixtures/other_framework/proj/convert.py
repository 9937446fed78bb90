import paddle
import torch


def to_torch(weights):
    return {k: torch.from_numpy(v.numpy()).cuda() for k, v in weights.items()}
