import torch
from torch import nn


class PrunedNorm(nn.LayerNorm):
    def prune_params(self, hidden_z):
        remaining = torch.where(~hidden_z.eq(0))[0]
        self.weight = nn.Parameter(self.weight.index_select(0, remaining))
        self.bias = torch.nn.parameter.Parameter(self.bias.index_select(0, remaining))

    def shrink(self, keep):
        self.weight.data = self.weight.data[keep.bool()]

    def sample(self, targets):
        index = torch.unique(targets[targets >= 0])
        self.sub_weight = nn.Parameter(self.weight[index])

    def forward(self, x, hidden_z):
        remaining = torch.where(~hidden_z.eq(0))[0]
        return x[..., remaining]
