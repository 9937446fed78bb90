import torch


class Beam(object):
    def __init__(self, size, sos):
        self.size = size
        self.tt = torch.cuda
        self.scores = self.tt.FloatTensor(size).zero_()
        self.next_ys = [self.tt.LongTensor(size).fill_(sos)]


class PickedBeam(object):
    def __init__(self, size, cuda=False):
        self.tt = torch.cuda if cuda else torch
        self.scores = self.tt.FloatTensor(size).zero_()


def probe():
    # an argument and a comparison: no module kept for later
    return hasattr(torch.cuda, "amp") or torch.cuda is None


def plain(n):
    tt = torch.cuda  # the use below resolves through the name and is reported there
    return tt.FloatTensor(n)
