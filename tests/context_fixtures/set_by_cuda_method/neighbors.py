import torch
from faiss import IndexFlatL2, StandardGpuResources, index_cpu_to_gpu


class Neighbors(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.res = None

    def cuda(self, device=None):
        super().cuda(device)
        self.res = StandardGpuResources()
        return self

    def cpu(self):
        super().cpu()
        self.res = None
        return self

    def build(self, x):
        index = IndexFlatL2(self.dim)
        if self.res is not None:
            index = index_cpu_to_gpu(self.res, 0, index)
        return index
