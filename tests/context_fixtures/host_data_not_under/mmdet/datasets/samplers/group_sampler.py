import torch


class GroupSampler:
    def __iter__(self):
        indices = torch.nonzero(torch.as_tensor(self.flag) == 1).squeeze(-1).unique()
        return iter(indices.tolist())
