import torch


class Meshes:
    def cpu(self):
        return self.to("cpu")

    def cuda(self):
        return self.to("cuda")

    def to_gpu(self):
        return self.to("cuda")


class Preprocessor(torch.nn.Module):
    def cuda(self, *args, **kwargs):
        self._device = torch.device(torch.cuda.current_device())
        return super().cuda()


def cuda(x):
    return x.cuda()


mesh = Meshes().cuda()
