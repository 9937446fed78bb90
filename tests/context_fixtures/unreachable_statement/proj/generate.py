import torch


def setup(model, compile=False):
    if compile:
        raise NotImplementedError("compiling is broken here")
        torch.backends.cudnn.benchmark = True
        model = torch.compile(model, mode="max-autotune")
    return model.cuda()


def pick(name):
    for n in ("a", "b"):
        if n == name:
            continue
            torch.cuda.synchronize()
        torch.cuda.synchronize()
    try:
        return torch.device("cuda")
    except RuntimeError:
        raise
        torch.cuda.empty_cache()
    finally:
        torch.cuda.empty_cache()


def after_a_call_that_exits(sys):
    sys.exit(1)
    return torch.device("cuda")
