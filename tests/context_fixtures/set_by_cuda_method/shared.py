import torch
from faiss import IndexFlatL2, StandardGpuResources, index_cpu_to_gpu



class Shared(torch.nn.Module):
    def __init__(self, dim, res=None):
        super().__init__()
        self.dim = dim
        self.res = res

    def cuda(self, device=None):
        self.res = StandardGpuResources()
        return super().cuda(device)

    def build(self, x):
        index = IndexFlatL2(self.dim)
        if self.res:
            index = index_cpu_to_gpu(self.res, 0, index)
        return index
