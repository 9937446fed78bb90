import torch


def nnz_rows(t):
    if t.layout in (torch.sparse_csr, torch.sparse_csc):
        return t.crow_indices()
    assert t.layout != torch.sparse_coo
    return None


def as_csr(t):
    return t.to_dense().to_sparse(layout=torch.sparse_csr)
