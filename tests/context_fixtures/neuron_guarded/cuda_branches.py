import torch


def timed(fn, x):
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    out = fn(x)
    if x.device.type == "cuda":
        torch.cuda.empty_cache()
    if x.is_cuda:
        x = x.half().cuda()
    if torch.version.hip:
        torch.backends.cudnn.benchmark = True
    if not torch.cuda.is_available():
        print("cpu")
    else:
        torch.cuda.reset_peak_memory_stats()
    if x.device.type != "cuda":
        torch.cuda.synchronize()
    if torch.cuda.device_count() > 1:
        model = torch.nn.DataParallel(fn).cuda()
    torch.cuda.synchronize()
    return out


def by_kind(kind, x):
    match kind:
        case "gpu":
            if torch.cuda.is_available():
                torch.cuda.synchronize()
        case _:
            torch.cuda.synchronize()
    try:
        y = x.cuda() if x.is_cuda else x
    except RuntimeError:
        y = x
    return y
