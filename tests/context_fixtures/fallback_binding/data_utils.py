try:
    from collections.abc import Iterable
except ImportError:
    from collections import Iterable
import collections

import torch


def sizes_ok(size, limits):
    if not isinstance(size, Iterable):
        return all(size <= b for b in limits)
    return isinstance(limits, collections.Mapping) and torch.is_tensor(size)
