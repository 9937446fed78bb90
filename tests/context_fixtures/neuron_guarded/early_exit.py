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


def report_capabilities(devices):
    if not all(d.type == "cuda" for d in devices):
        print("not every device is a GPU")
        return
    print(set(map(torch.cuda.get_device_capability, devices)))


def any_gpu(devices):
    if any(d.type == "cuda" for d in devices):
        torch.cuda.synchronize()
    torch.cuda.empty_cache()
