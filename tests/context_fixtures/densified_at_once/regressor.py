import torch


class SMPL(torch.nn.Module):
    def __init__(self, row, col, data, shape, device):
        super().__init__()
        i = torch.LongTensor([row, col])
        v = torch.FloatTensor(data)
        self.register_buffer("J_regressor", torch.sparse.FloatTensor(i, v, shape).to_dense())
        self.register_buffer("weights", torch.sparse_coo_tensor(i, v, shape).to_dense())
        self.adj = torch.sparse_coo_tensor(i, v, shape)
        self.on_device = torch.sparse_coo_tensor(i, v, shape, device=device).to_dense()


def degree(adj):
    return torch.sparse.sum(adj, dim=1).to_dense()
