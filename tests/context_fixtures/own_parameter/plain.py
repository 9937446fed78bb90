import torch.nn as nn


def encode(layers, x, pad):
    for layer in layers:
        x = layer(x, src_key_padding_mask=pad)
    return x
