import torch


class Worker:
    def __init__(self):
        self.cuda = False

    def run(self):
        self.cuda = True
        if self.cuda:
            torch.cuda.synchronize()
