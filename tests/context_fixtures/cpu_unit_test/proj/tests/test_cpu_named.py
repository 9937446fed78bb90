import torch


def test_to_cpu_device():
    cpu_device = torch.device("cpu")
    t = torch.zeros(2).to(dtype=torch.float64, device=cpu_device)
    assert t.sum() == 0
