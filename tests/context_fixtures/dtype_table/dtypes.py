import numpy as np
import torch

NAME_TO_DTYPE = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16}
NUMPY_TO_TORCH = {np.float64: torch.float64, np.int64: torch.int64}


def reference(x):
    return x.to(torch.float64)


MIXED = {"dtype": torch.float64, "scale": 2.0}
