"""A graph dataset that processes raw files once and reads its own processed file back; and a feature dataset
that reads embeddings a training run saved."""
import os.path as osp

import torch
from torch.utils.data import Dataset


class ProcessedGraphs(Dataset):
    def __init__(self, root):
        self.root = root
        self.processed = osp.join(root, "processed", "graphs.pt")
        if not osp.exists(self.processed):
            self.process()
        self.graphs, self.index = torch.load(self.processed)

    def process(self):
        graphs = [torch.zeros(4, 2) for _ in range(3)]
        torch.save((graphs, list(range(3))), self.processed)

    def load_cache(self, name):
        cache = osp.join(self.root, name)
        if osp.exists(cache):
            return torch.load(cache)
        table = {"x": torch.arange(5)}
        torch.save(table, cache)
        return table

    def __len__(self):
        return len(self.graphs)


class EmbeddingFeatures(Dataset):
    def __init__(self, model, path):
        self.path = path
        self.feats = torch.load(self.path)

    def export(self, model):
        torch.save(model.encoder.weight.cuda(), self.path)

    def __len__(self):
        return len(self.feats)
