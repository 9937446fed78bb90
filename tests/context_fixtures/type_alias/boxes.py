from typing import Optional, Union

import numpy as np
import torch

IndexType = Union[slice, int, torch.LongTensor, torch.cuda.LongTensor, np.ndarray]
MaybeCuda = Optional[torch.cuda.FloatTensor]


def select(boxes, index: IndexType):
    return boxes[index]


def to_gpu(boxes):
    return boxes.type(torch.cuda.FloatTensor)
