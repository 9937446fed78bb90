import logging

import torch
from packaging import version

import somelib

logger = logging.getLogger(__name__)


def describe(device):
    n_gpu = torch.cuda.device_count()
    logger.info("device=%s, n_gpu=%d", device, n_gpu)
    return device


def count(device):
    n_gpu = torch.cuda.device_count()
    logger.info("n_gpu=%d", n_gpu)
    return n_gpu


def check_cpu_support(cfg):
    if not torch.cuda.is_available():
        assert version.parse(somelib.__version__) >= version.parse("1.4.4"), "CPU runs need somelib >= 1.4.4"
    return cfg


def check_gpu_count(cfg):
    if not torch.cuda.is_available():
        assert cfg.num_gpus == 0
    return cfg


def loader(dataset):
    return torch.utils.data.DataLoader(dataset, batch_size=4, pin_memory=torch.cuda.is_available())


def loader_on(dataset):
    return torch.utils.data.DataLoader(dataset, batch_size=4, pin_memory_device="cuda" if torch.cuda.is_available() else "")


def session(path, ort):
    providers = ["CUDAExecutionProvider" if torch.cuda.is_available() else "CPUExecutionProvider"]
    return ort.InferenceSession(path, providers=providers)


def contexts(device):
    from contextlib import nullcontext

    side = torch.cuda.stream(torch.cuda.Stream(device)) if torch.cuda.is_available() else nullcontext()
    amp = torch.autocast("cuda") if torch.cuda.is_available() else nullcontext()
    return side, amp
