import torch as th


def count_flops_conv(module, _x, y):
    # the counter attribute spelled with a fullwidth letter: Python reads it as `total_ops` (NFKC)
    module.ｔotal_ops += th.DoubleTensor([y.numel()])


def keep(module, y):
    return th.DoubleTensor([y.numel()])  # expect: TRN121
