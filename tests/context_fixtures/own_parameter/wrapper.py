import torch.nn as nn


class Encoder(nn.Module):
    """Forwards the padding mask through its own API (fairseq / detectron2 style)."""

    def forward(self, src, src_key_padding_mask=None):
        return self.layers(src, src_key_padding_mask=src_key_padding_mask)


def encode(enc, x, pad):
    return enc(x, src_key_padding_mask=pad)
