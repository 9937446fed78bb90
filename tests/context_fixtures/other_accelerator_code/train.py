import torch
from transformers.utils import is_torch_npu_available


def init_xpu_backend():
    torch.cuda.empty_cache()


def setup_output():
    torch.cuda.empty_cache()


def hip_angle(keypoints):
    torch.cuda.synchronize()
    return keypoints


def step(args, device):
    if args.use_ipex:
        torch.cuda.synchronize()
    if device.type == "mps":
        torch.cuda.synchronize()
    if is_torch_npu_available():
        torch.cuda.synchronize()
    if device.type != "hpu":
        torch.cuda.synchronize()


class XPUAttention:
    def forward(self, x):
        torch.cuda.synchronize()
        return x
