import torch


def pad_collate(batch):
    return torch.tensor(batch, dtype=torch.float64)


def graph_collate(items):
    return torch.cat([x.to(items[0].device) for x in items]).to(torch.float64)


def collate_to(batch, device):
    return torch.tensor(batch, dtype=torch.float64, device=device)


def batch_to(batch, device):
    return batch.to(device)
