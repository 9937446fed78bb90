import torch

from pkg.utils.replay import capture_forward
from pkg.utils.timing import peak_bytes


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = torch.nn.LayerNorm(width)
        self.graph = None

    def _fast_norm(self, x):
        if self.graph is None:
            self.graph = capture_forward(self.norm, x)
        return self.graph[1]

    def _report(self):
        return peak_bytes()

    def forward(self, x):
        if x.size(0) == 1 and x.device.type == "cuda":
            x = self._fast_norm(x)
        else:
            x = self.norm(x)
        self._report()
        return x
