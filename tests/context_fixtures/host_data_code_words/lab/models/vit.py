import numpy as np
import torch
import torch.nn.functional as F


def resize_pos_embed(state_dict, model):
    return F.interpolate(state_dict["pos"], size=(4, 4), mode="bicubic")


def interpolate_pos_embed(pos_embed_checkpoint, encoder):
    return F.interpolate(pos_embed_checkpoint, size=(4, 4), mode="bilinear")


def _load_weights(model, path):
    return _resize(torch.from_numpy(np.load(path)))


def _resize(w):
    return F.interpolate(w, size=(4, 4), mode="bilinear")


class Block(torch.nn.Module):
    def forward(self, x, use_checkpoint=False):
        return F.interpolate(x, scale_factor=2, mode="bilinear")


def run(x, gradient_checkpointing):
    return F.interpolate(x, scale_factor=2, mode="bilinear")


def interpolate_pos_embed_mae(model, checkpoint_model):
    return F.interpolate(checkpoint_model["pos_embed"], size=(4, 4), mode="bicubic")
