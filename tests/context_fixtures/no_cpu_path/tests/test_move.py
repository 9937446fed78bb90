import torch


def test_move():
    x = torch.ones(2).cuda()
    if torch.cuda.is_available():
        y = x.cuda()
    assert y is not None
