import torch.nn as nn


class Chain(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Upsample(scale_factor=2, mode="bicubic")

    def forward(self, x):
        for layer in self.children():
            x = layer(x)
        return x
