import torch

try:
    import bitsandbytes as bnb
except ImportError:
    bnb = None

try:
    import torchao
except ImportError:
    torchao = None

if bnb is not None:

    class Linear8bit(bnb.nn.Linear8bitLt):
        def quantize(self, weight):
            return weight.half().cuda()


def load(weight):
    if bnb is None:
        return weight
    return weight.cuda()


def plain(weight):
    if torchao is not None:
        return weight.cuda()
    return weight
