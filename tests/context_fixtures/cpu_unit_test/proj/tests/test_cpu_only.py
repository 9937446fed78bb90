import torch
from torchao.quantization import quantize_


def test_sparse_sum():
    i = torch.tensor([[0, 1], [1, 0]])
    s = torch.sparse_coo_tensor(i, torch.ones(2), (2, 2))
    assert s.to_dense().sum() == 2


def test_reference_in_float64():
    ref = torch.randn(4, dtype=torch.float64)
    assert ref.shape == (4,)


def test_on_the_named_cpu():
    ids = torch.zeros(3, dtype=torch.float64, device=torch.device("cpu"))
    assert ids.sum() == 0
