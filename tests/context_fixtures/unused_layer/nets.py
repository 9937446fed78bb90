import torch.nn as nn


class FlowNetS(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 64, 7)
        self.upsample1 = nn.Upsample(scale_factor=4, mode="bilinear")
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.xavier_uniform_(m.weight)

    def forward(self, x):
        return self.conv(x)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear")

    def forward(self, x):
        return self.up(x)
