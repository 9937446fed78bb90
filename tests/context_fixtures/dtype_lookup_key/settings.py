import torch

EPS = {torch.float: 1e-6, torch.double: 1e-10}


class jitter:
    _f = 1e-6
    _d = 1e-8

    @classmethod
    def value(cls, dtype):
        if torch.is_tensor(dtype):
            dtype = dtype.dtype
        if dtype == torch.float:
            return cls._f
        elif dtype == torch.double:
            return cls._d
        raise RuntimeError("dtype")

    def __init__(self):
        self.f = self.__class__.value(torch.float)
        self.d = self.__class__.value(torch.double)
        self.e = EPS[torch.double]
        self.g = EPS.get(torch.double)


def make(dtype):
    return torch.zeros(3, dtype=dtype)


x = make(torch.double)


def cast(dtype):
    if dtype == torch.double:
        return torch.ones(2, dtype=dtype)
    return None


y = cast(torch.double)
