import torch


class GradScaler:
    def __init__(self, init_scale=2.0 ** 16):
        self._scale = torch.tensor([init_scale], dtype=torch.float32, device="neuron")

    def inv_scale(self):
        return self._scale.double().reciprocal().float()

    def norm(self, grads):
        return grads.double().reciprocal().float()

    def total(self, loss_scale):
        return loss_scale.double().sqrt().float()

    def kept(self, loss_scale):
        return loss_scale.double().reciprocal()
