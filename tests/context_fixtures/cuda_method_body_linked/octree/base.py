import torch


class Movable:
    def to(self, device, non_blocking=False):
        if isinstance(device, str):
            device = torch.device(device)
        self.device = device
        return self
