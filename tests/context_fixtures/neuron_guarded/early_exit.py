import torch


def enable_tf32():
    if not torch.cuda.is_available():
        return
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True


def need_gpu():
    if not torch.cuda.is_available():
        raise RuntimeError("this script needs a GPU")
    torch.cuda.set_device(0)


def maybe(flag):
    if not flag:
        return
    torch.cuda.set_device(0)
