import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(64, 4, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)

    def forward(self, x, pad):
        return self.encoder(x, src_key_padding_mask=pad)
