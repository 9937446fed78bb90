import torch


def embed_reviews(encoder, texts, device):
    ids = torch.unique(texts)
    return encoder(ids.to(device))
