import torch

try:
    autocast = torch.cuda.amp.autocast  # expect: TRN251
except AttributeError:
    autocast = None


class Head(torch.nn.Module):
    def forward(self, x):
        with torch.cuda.amp.autocast(enabled=False):  # expect: TRN251
            return self.proj(x.float())


class Flow(torch.nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args

    def forward(self, x):
        with autocast(enabled=self.args.mixed_precision):
            return self.encoder(x)
