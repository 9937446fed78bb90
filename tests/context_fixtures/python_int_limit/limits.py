import torch

LONG_MAX = torch.iinfo(torch.int64).max
FILL = torch.iinfo(torch.long).min


def check(rows, cols):
    if rows * cols > LONG_MAX:
        raise OverflowError(rows * cols)
    assert rows <= torch.iinfo(torch.int64).max


def far_away(dist, mask):
    return dist.masked_fill(mask, torch.iinfo(torch.int64).max)


def pad(idx, mask):
    return torch.where(mask, idx, FILL)


UNUSED_HERE = torch.iinfo(torch.int64).max


class TestIds:
    def test_sentinel(self, ids):
        self.assertEqual(list(ids), [3, 5, torch.iinfo(torch.int64).max])
        return torch.tensor([1, torch.iinfo(torch.int64).max])
