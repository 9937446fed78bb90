import torch


class FusedNorm(torch.nn.Module):
    def __init__(self, norm):
        super().__init__()
        self.norm = norm
        self.graph = None

    def _captured(self, x):
        if self.graph is None:
            self.graph = torch.cuda.CUDAGraph()
        torch.cuda.synchronize()
        return self.norm(x)

    def _replayed(self, x):
        torch.cuda.synchronize()
        return self._captured(x)

    def _sync(self):
        torch.cuda.synchronize()

    def _handed_on(self):
        torch.cuda.synchronize()

    def forward(self, x):
        if x.device.type == "cuda" and not self.training:
            return self._replayed(x)
        self._sync()
        run = self._handed_on
        run()
        return self.norm(x)


class Subclassed(torch.nn.Module):
    def _overridden(self):
        torch.cuda.synchronize()

    def forward(self, x):
        if x.is_cuda:
            self._overridden()
        return x


class Trainer:
    def __init__(self):
        self.cuda = torch.cuda.is_available()

    def _log_memory(self):
        return torch.cuda.max_memory_allocated()

    def step(self):
        if self.cuda:
            self._log_memory()


class SeqTrainer:
    def __init__(self, cfg):
        self.tpu = cfg.tpu

    def _check_xla_compilation(self):
        import torch_xla.debug.metrics as met
        return met.metric_data("CompileTime")

    def _xla_sync(self):
        import torch_xla.core.xla_model as xm
        xm.mark_step()

    def step(self):
        if self.tpu:
            self._check_xla_compilation()
        if not self.tpu:
            self._xla_sync()
