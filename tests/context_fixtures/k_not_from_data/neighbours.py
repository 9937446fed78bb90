import torch


def neighbours(ranking, adj_mat, only_sparse, num_nn, n):
    if adj_mat is not None:
        max_adj = adj_mat.long().sum(dim=-1).max().item() + 1
        num_nn = max_adj if only_sparse else (num_nn + max_adj)
    if 0 < num_nn < n:
        values, idx = ranking.topk(num_nn, dim=-1, largest=False)
    return idx


def nearest(ranking, adj_mat, only_sparse, num_nearest):
    if only_sparse:
        num_nearest = int(adj_mat.float().sum(dim=-1).max().item())
    vals, idx = ranking.topk(num_nearest, dim=-1, largest=False)
    return idx


def sampled(logprobs, method):
    k = int(method[3:]) if method.startswith("top") else 1
    return torch.topk(logprobs, k, dim=1)
