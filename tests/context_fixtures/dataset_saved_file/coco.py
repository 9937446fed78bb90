import os

import torch
from torch.utils.data import Dataset


class COCOSegmentation(Dataset):
    def __init__(self, root, split="train"):
        ids_file = os.path.join(root, f"annotations/{split}_ids.pth")
        if os.path.exists(ids_file):
            self.ids = torch.load(ids_file)
        else:
            self.ids = self._preprocess(list(range(10)), ids_file)
        ckpt_file = os.path.join(root, "backbone_ckpt.pth")
        if os.path.exists(ckpt_file):
            self.ckpt = torch.load(ckpt_file)
        else:
            self.ckpt = self._extract(ckpt_file)

    def _preprocess(self, ids, ids_file):
        new_ids = [i for i in ids if i % 2]
        torch.save(new_ids, ids_file)
        return new_ids

    def _extract(self, out):
        torch.save(self.backbone.cuda().state_dict(), out)
        return self.backbone
