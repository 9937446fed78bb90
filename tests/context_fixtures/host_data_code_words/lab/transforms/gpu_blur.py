import torch


class Blur:
    def kernel(self, radius):
        xs = torch.linspace(-radius, radius, 5, device=self.device, dtype=torch.float64)
        return xs[xs > 0]
