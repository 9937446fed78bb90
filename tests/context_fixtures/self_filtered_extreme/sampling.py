import torch


def sample(model, x, sigmas):
    sigma_min, sigma_max = sigmas[sigmas > 0].min(), sigmas.max()
    floor = sigmas[0 < sigmas].amin()
    return model(x, sigma_min, sigma_max, floor)


def hardest(dist, mask):
    return dist[mask].max()


def total(scores):
    return scores[scores > 0].sum()


def kept(weights):
    chosen = weights[weights > 0]
    return chosen.min()


def per_row(logits):
    return logits[logits > 0].max(dim=0)
