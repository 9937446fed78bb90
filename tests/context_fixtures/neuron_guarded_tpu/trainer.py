import os

import torch


class Trainer:
    def __init__(self, cfg):
        self.cuda = torch.cuda.is_available() and not cfg.cpu
        self.tpu = cfg.tpu

    def step(self, model):
        if self.cuda:
            torch.cuda.empty_cache()
        if self.tpu:
            import torch_xla.core.xla_model as xm
            xm.mark_step()
        return model.to(torch.float64)


def launch(args):
    if os.environ.get("PJRT_DEVICE", "") == "TPU":
        import torch_xla.distributed.xla_multiprocessing as xmp
    if args.use_tpu:
        import torch_xla.runtime as xr
    if args.use_cuda_graphs:
        torch.cuda.synchronize()

