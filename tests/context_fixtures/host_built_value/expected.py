import torch


def test_statistics(available_device):
    samples = torch.rand(10, 10)
    scorer = torch.nn.Identity().to(available_device)
    mu = samples.mean(axis=0, dtype=torch.float64)
    total = scorer(samples.to(available_device)).mean(axis=0)
    assert torch.allclose(mu, total.cpu().to(dtype=mu.dtype))


def test_moved(available_device):
    samples = torch.rand(10, 10)
    mu = samples.mean(axis=0, dtype=torch.float64)
    total = samples.to(available_device).mean(axis=0)
    assert torch.allclose(mu, total.to(dtype=mu.dtype))


def test_handed_on(available_device):
    samples = torch.rand(10, 10)
    mu = samples.mean(axis=0, dtype=torch.float64)
    check(mu.to(available_device), samples.cpu())
