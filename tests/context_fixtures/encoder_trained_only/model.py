from torch import nn

ENCODER = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 2, batch_first=True), 1)


def encode(x, pad):
    return ENCODER(x, src_key_padding_mask=pad)
