import torch


def configure(tf32):
    torch.backends.cudnn.allow_tf32 = tf32
    assert torch.backends.cudnn.allow_tf32 is tf32
