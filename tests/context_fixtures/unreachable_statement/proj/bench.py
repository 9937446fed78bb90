import sys

import torch


def timing(x):
    y = x.cuda()
    quit()
    torch.cuda.synchronize()
    return y


def checked(x):
    if x is None:
        sys.exit("no input")
        torch.cuda.empty_cache()
    return x.cuda()


def exit(code):  # the file's own `exit`: a call of it may return
    print(code)


def own_exit(x):
    exit(0)
    return x.cuda()
