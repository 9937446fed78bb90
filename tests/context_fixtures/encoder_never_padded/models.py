from torch import nn


def layer():
    return nn.TransformerEncoderLayer(64, 4, batch_first=True)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoder(layer(), 2)

    def forward(self, x):
        return self.encoder(x)


class Causal(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.TransformerEncoder(layer(), 2)

    def forward(self, x, causal, pad):
        return self.body(x, mask=causal, src_key_padding_mask=pad)


class Layers(nn.Module):
    def __init__(self):
        super().__init__()
        self.stack = nn.TransformerEncoder(layer(), 2)

    def forward(self, x, pad):
        for blk in self.stack.layers:
            x = blk(x, src_key_padding_mask=pad)
        return x


class Padded(nn.Module):
    def __init__(self):
        super().__init__()
        self.padded = nn.TransformerEncoder(layer(), 2)

    def forward(self, x, pad):
        return self.padded(x, src_key_padding_mask=pad)


class Positional(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.TransformerEncoder(layer(), 2)

    def forward(self, x, pad):
        return self.pos(x, None, pad)


class HandedOut(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.TransformerEncoder(layer(), 2)

    def get_encoder(self):
        return self.shared


class Spread(nn.Module):
    def __init__(self):
        super().__init__()
        self.spread = nn.TransformerEncoder(layer(), 2)

    def forward(self, x, **kw):
        return self.spread(x, **kw)


def build_and_run(x, pad):
    enc = nn.TransformerEncoder(layer(), 2)
    return enc(x, src_key_padding_mask=pad)


def build_local(x):
    enc = nn.TransformerEncoder(layer(), 2)
    return enc(x)
