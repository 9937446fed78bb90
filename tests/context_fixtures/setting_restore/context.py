import torch
import torch._inductor.config as ic


class InferenceContext:
    def __init__(self, benchmark=False):
        self._chosen = benchmark
        self._cudnn_benchmark = None

    def __enter__(self):
        self._cudnn_benchmark = torch.backends.cudnn.benchmark
        torch.backends.cudnn.benchmark = self._chosen

    def __exit__(self, *exc):
        torch.backends.cudnn.benchmark = self._cudnn_benchmark


def set_flags():
    ic.epilogue_fusion = False
    ic.coordinate_descent_tuning = True


def reset_flags():
    ic.epilogue_fusion = True
    ic.coordinate_descent_tuning = False
    ic.max_autotune = True


def reset_backend():
    torch.backends.cudnn.deterministic = True


def configure():
    torch.backends.cudnn.allow_tf32 = True


def save_and_restore():
    torch.backends.cudnn.allow_tf32 = False
