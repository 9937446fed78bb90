import os

import torch


class GlobalNorm:
    @classmethod
    def from_file(cls, stats_file):
        stats = torch.load(stats_file)
        return cls(stats["mean"], stats["std"])


def get_idx_split(root):
    split = torch.load(os.path.join(root, "split_dict.pt"))
    return {k: v.tolist() for k, v in split.items()}


def read_alignments(filename):
    ali = torch.load(filename)
    return ali["alignments"]


def evaluate(args, net):
    ckpt = torch.load(args.ckpt)
    net.load_state_dict(ckpt["g_ema"])


def restore(net, path):
    net.load_state_dict(torch.load(path))


def load_any(path):
    return torch.load(path)


def cached(path):
    obj = torch.load(path)
    return obj


def weights_by_key(path):
    return dict(torch.load(path)["model"])


def restore_later(path, net):
    blob = torch.load(path)
    net.load_state_dict(blob)


features = torch.load("features_cache.pt")


def hydrate(path):
    pkg = torch.load(str(path))
    config, weights = pkg["config"], pkg["state_dict"]
    return build(config, weights)


def restore_training_settings(args):
    train_args = torch.load(os.path.join(args.eval_model_dir, "training_args.bin"))
    return train_args.max_seq_length
