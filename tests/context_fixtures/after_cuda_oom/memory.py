from contextlib import contextmanager
from functools import wraps

import torch
from torch.cuda.amp import autocast


@contextmanager
def _ignore_torch_cuda_oom():
    try:
        yield
    except RuntimeError as e:
        if "CUDA out of memory. " in str(e):
            pass
        else:
            raise


@contextmanager
def _ignore_value_errors():
    try:
        yield
    except ValueError:
        pass


def retry_if_cuda_oom(func):
    @wraps(func)
    def wrapped(*args, **kwargs):
        with _ignore_torch_cuda_oom():
            return func(*args, **kwargs)
        torch.cuda.empty_cache()
        with _ignore_torch_cuda_oom():
            return func(*args, **kwargs)
        new_args = (x.to(device="cpu") for x in args)
        with autocast(enabled=False):
            return func(*new_args)
    return wrapped


def retry_on_value_error(func):
    def wrapped(*args):
        with _ignore_value_errors():
            return func(*args)
        torch.cuda.empty_cache()
        return func(*args)
    return wrapped


def first_try(x):
    with _ignore_torch_cuda_oom():
        y = x.cuda()
    torch.cuda.synchronize()
    return y


def train_step(model, batch, log):
    try:
        loss = model(batch)
        loss.backward()
    except Exception as exc:
        text = str(exc)
        if "CUDA out of memory" in text:
            log("cuda OOM - batch removed")
            torch.cuda.empty_cache()
        else:
            torch.cuda.synchronize()
            raise exc
    if "out of memory" in log.last:
        torch.cuda.empty_cache()
