import torch
import torch.nn as nn


class VQ(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(64, 4, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)

    def forward(self, x, pad):
        return self.encoder(x, src_key_padding_mask=pad)


def main(loader):
    model = VQ()
    opt = torch.optim.AdamW(model.parameters())
    for x, pad in loader:
        loss = model(x, pad).mean()
        loss.backward()
        opt.step()
