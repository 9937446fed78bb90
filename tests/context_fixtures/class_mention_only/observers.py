import torch.ao.quantization as tq
from torch.ao.quantization import PerChannelMinMaxObserver


class Wrapped(tq.PerChannelMinMaxObserver):
    def forward(self, x):
        return tq.PerChannelMinMaxObserver.forward(self, x)


class Unrelated:
    def stats(self, x):
        return PerChannelMinMaxObserver.forward(self, x)


def is_per_channel(m):
    return issubclass(type(m), tq.PerChannelMinMaxObserver)


tq.PerChannelMinMaxObserver.extra_repr = lambda self: "patched"
obs = tq.PerChannelMinMaxObserver(ch_axis=0)
