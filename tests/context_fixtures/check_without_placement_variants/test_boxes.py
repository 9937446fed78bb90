import torch


def test_area_on_each_device():
    for device in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        boxes = torch.ones(4, 4, device=device)
        assert boxes.sum() > 0


def test_overlap_on_each_device():
    devices = ["cpu"]
    if torch.cuda.is_available():
        devices.append("cuda")
    for device in devices:
        assert torch.zeros(2, device=device).sum() == 0


def test_picks_one_device():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert torch.ones(1, device=device).item() == 1


def test_moves_when_available():
    devices = ["cpu"]
    if torch.cuda.is_available():
        devices.append("cuda")
        torch.cuda.set_device(0)
    assert devices
