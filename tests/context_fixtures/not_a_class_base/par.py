import torch.nn as nn
from torch.nn.parallel.data_parallel import DataParallel


class DictGatherDataParallel(nn.DataParallel):
    def gather(self, outputs, output_device):
        return outputs


class UserScattered(DataParallel):
    pass


def build(net, gpus):
    return DictGatherDataParallel(net, device_ids=gpus)


def ok(x):
    return isinstance(x, nn.DataParallel)
