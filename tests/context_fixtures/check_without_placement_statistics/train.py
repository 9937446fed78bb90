import torch
import torch.nn as nn


def setup(model, cuda, rank, pbar, logger):
    if cuda and rank == -1 and torch.cuda.device_count() > 1:
        logger.warning("DataParallel is slower than DDP")
        model = nn.DataParallel(model)
    pbar.set_description(f"{torch.cuda.memory_reserved() / 1e9 if torch.cuda.is_available() else 0:.3g}G")
    gb = torch.cuda.max_memory_allocated() / 2**30 if torch.cuda.is_available() else None
    logger.info(gb)
    return model


def pick(model, rank):
    if rank == -1 and torch.cuda.device_count() > 1:
        model = nn.DataParallel(model).cuda()
    index = torch.cuda.current_device() if torch.cuda.is_available() else 0
    mem = torch.cuda.memory_reserved() if torch.cuda.is_available() else "n/a"
    return model, index, mem
