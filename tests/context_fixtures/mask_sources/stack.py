"""A model builds its padding mask and hands it down through its own blocks: encoder stack (a loop over cloned
layers), layer, then a helper method calling nn.MultiheadAttention. The attention call is the finding; the argument
where the built mask enters the stack is listed as its place. A block handing on its own parameter is no place."""
import copy

import torch
import torch.nn as nn


def _get_clones(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])


class EncoderLayer(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead)

    def attend(self, src, src_key_padding_mask=None):
        return self.self_attn(src, src, src, key_padding_mask=src_key_padding_mask)[0]  # expect: TRN172

    def forward(self, src, src_key_padding_mask=None):
        return src + self.attend(src, src_key_padding_mask)


class Encoder(nn.Module):
    def __init__(self, layer, num_layers):
        super().__init__()
        self.layers = _get_clones(layer, num_layers)

    def forward(self, src, src_key_padding_mask=None):
        for layer in self.layers:
            src = layer(src, src_key_padding_mask=src_key_padding_mask)  # ok: hands its own parameter on
        return src


class Model(nn.Module):
    def __init__(self, d_model=256, nhead=8):
        super().__init__()
        layer = EncoderLayer(d_model, nhead)
        self.encoder = Encoder(layer, 6)

    def forward(self, video, video_pad, text, text_pad):
        seq = torch.cat((video, text), dim=0)
        seq_mask = torch.cat((video_pad, text_pad), dim=1)
        return self.encoder(seq, src_key_padding_mask=seq_mask)  # expect: TRN172

    def forward_unpadded(self, video):
        return self.encoder(video, src_key_padding_mask=None)  # ok: no mask
