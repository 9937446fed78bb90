from torch import nn


def seq_first(d_model, nhead, layers):
    layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead)
    return nn.TransformerEncoder(layer, num_layers=layers)


def pre_norm(d_model, nhead, layers):
    return nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, nhead, batch_first=True, norm_first=True), layers)


# look-alikes: a batch-first post-norm layer, a layer from elsewhere, a flag that is not a constant


def batch_first(d_model, nhead, layers):
    layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, 0.1, batch_first=True)
    return nn.TransformerEncoder(layer, layers)


def given(layer, layers):
    return nn.TransformerEncoder(layer, layers)


def configured(d_model, nhead, layers, bf):
    return nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, nhead, batch_first=bf), layers)
