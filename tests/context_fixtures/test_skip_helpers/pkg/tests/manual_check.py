import torch


def demo_run(x):
    # no test case here: a script or a helper other modules may import
    return x.cuda()


def check(x):
    if torch.cuda.device_count() < 2:
        return x
    return demo_run(x)
