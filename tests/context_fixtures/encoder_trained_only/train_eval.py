import torch
from torch import nn


def build(width):
    block = nn.TransformerEncoderLayer(width, 8, batch_first=True)
    return nn.TransformerEncoder(block, 4)


def fit(batches, held_out):
    encoder = build(128)
    optimizer = torch.optim.SGD(encoder.parameters(), lr=0.1)
    for x, pad in batches:
        encoder(x, src_key_padding_mask=pad).sum().backward()
        optimizer.step()
    encoder.eval()
    with torch.no_grad():
        return [encoder(x, src_key_padding_mask=pad) for x, pad in held_out]
