import torch

from mylib import Net, build


def _inputs(shape, cuda=False):
    x = torch.rand(shape)
    if cuda:
        x = x.cuda()
    return x


def _targets(shape, on_gpu=False):
    y = torch.zeros(shape)
    if on_gpu:
        y = y.cuda()
    return y


def test_forward():
    model = Net()
    out = model(_inputs((1, 3)))
    assert out.shape == (1, 3)

    # test on gpu
    if torch.cuda.is_available():
        model = model.cuda()
        out = model(_inputs((1, 3), cuda=True))
        assert out.is_cuda


def test_forward_after():
    model = build()
    if torch.cuda.is_available():
        model = build()
        model.cuda()
        out = model(_inputs((2, 3), True))
    model = build()
    out = model(_inputs((2, 3)))
    assert out is not None


def test_model_kept_on_gpu():
    model = Net()
    if torch.cuda.is_available():
        model.cuda()
    out = model(_targets((1, 3), on_gpu=True))
    assert out is not None


def test_leaves():
    model = Net()
    if torch.cuda.is_available():
        model = model.cuda()
        return
    assert model is not None


def test_items_moved():
    feats = {"a": torch.rand(2)}
    assert Net()(feats) is not None
    if torch.cuda.is_available():
        for key in feats.keys():
            feats[key] = feats[key].cuda()
        assert Net().cuda()(feats) is not None


def test_items_read_after():
    feats = {"a": torch.rand(2)}
    if torch.cuda.is_available():
        feats["a"] = feats["a"].cuda()
    assert Net()(feats) is not None
