"""Hermetic, CPU-only tests (says the docstring; nothing stubs torch)."""
import torch


def test_moves_to_the_gpu():
    model = torch.nn.Linear(2, 2).to("cuda")
    assert model.weight.is_cuda
