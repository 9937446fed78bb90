import torch


def shard(model, options):
    if not options["xla"]:
        from torch.distributed.fsdp import FullyShardedDataParallel

        return FullyShardedDataParallel(model)
    from torch_xla.distributed.fsdp import XlaFullyShardedDataParallel

    return XlaFullyShardedDataParallel(model)


def step(model, cfg):
    if cfg["compile"]:
        import torch_xla.core.xla_model as xm

        xm.mark_step()
    return model
