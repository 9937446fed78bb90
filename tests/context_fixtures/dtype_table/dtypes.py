import numpy as np
import torch

NAME_TO_DTYPE = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16}
NUMPY_TO_TORCH = {np.float64: torch.float64, np.int64: torch.int64}


def reference(x):
    return x.to(torch.float64)


MIXED = {"dtype": torch.float64, "scale": 2.0}


def to_dtype(name):
    if name == "fp32":
        return torch.float32
    elif name == "fp8":
        return torch.float8_e4m3fn
    raise ValueError(name)


def check(x):
    valid = [torch.float32, torch.float64]
    if x.dtype not in valid:
        raise TypeError(x.dtype)
    return x.dtype in (torch.bfloat16, torch.float64)


# look-alikes: a function that also returns something else, a dtype list used for more than membership


def pick(x):
    if x:
        return torch.float64
    return x.dtype


def cases():
    dtypes = [torch.float32, torch.float64]
    return [torch.ones(2, dtype=d) for d in dtypes]


def str_to_dtype(s, default=None):
    if s is None:
        return default
    if s in ["fp64", "double"]:
        return torch.float64
    return torch.float32


def reader_dtypes():
    dtype_map = {"F32": torch.float32, "F16": torch.float16}
    if hasattr(torch, "float64"):
        dtype_map["F64"] = torch.float64
    return dtype_map


def not_a_table():
    out = {}
    out["y"] = torch.float64
    return out
