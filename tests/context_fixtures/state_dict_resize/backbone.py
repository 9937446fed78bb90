import math

import torch
import torch.nn.functional as F
from mmcv.runner import _load_checkpoint
from mmseg.ops import resize


def load_swin(swin_state_dict, window_size):
    for x in list(swin_state_dict):
        if x.endswith("relative_position_bias_table"):
            pos_bias = swin_state_dict[x].unsqueeze(0)[0]
            old_len = int(math.sqrt(len(pos_bias)))
            new_len = 2 * window_size - 1
            pos_bias = pos_bias.reshape(1, old_len, old_len, -1).permute(0, 3, 1, 2)
            pos_bias = F.interpolate(pos_bias, size=(new_len, new_len), mode="bicubic", align_corners=False)
            swin_state_dict[x] = pos_bias.permute(0, 2, 3, 1).reshape(new_len ** 2, -1)
    return swin_state_dict


class Backbone(torch.nn.Module):
    def init_weights(self, path):
        state_dict = _load_checkpoint(path)
        table = state_dict["relative_position_bias_table"]
        resized = resize(table.permute(1, 0).reshape(1, 4, 7, 7), size=(13, 13), mode="bicubic")
        checkpoint = torch.load(path)["pos_embed"]
        grid = F.interpolate(checkpoint, size=(14, 14), mode="bicubic")
        for k, v in state_dict.items():
            state_dict[k] = F.interpolate(v, scale_factor=2, mode="bilinear")
        self.load_state_dict(state_dict)
        return resized, grid

    def forward(self, x):
        pos = self.pos_embed.reshape(1, 7, 7, -1).permute(0, 3, 1, 2)
        pos = F.interpolate(pos, size=x.shape[-2:], mode="bicubic")
        return x + F.interpolate(x, scale_factor=2, mode="bilinear") + pos


def mix(features, state):
    return F.interpolate(state, size=features.shape[-2:], mode="bilinear")


def load_checkpoint(model, state_dict, new_size):
    pos_embed_checkpoint = state_dict["pos_embed"]
    pos_tokens = pos_embed_checkpoint[:, 1:]
    pos_tokens = pos_tokens.reshape(-1, 14, 14, 768).permute(0, 3, 1, 2)
    pos_tokens = torch.nn.functional.interpolate(
        pos_tokens, size=(new_size, new_size), mode="bicubic", align_corners=False)
    return pos_tokens


class TextEncoder(torch.nn.Module):
    def resize_pos_embed_1d(self, posemb, shape_new):
        grid = posemb.unsqueeze(dim=0).permute(0, 2, 1).unsqueeze(dim=-1)
        return F.interpolate(grid, size=[shape_new[0], 1], mode="bilinear")

    def init_weights(self, path):
        pretrained_dict = torch.load(path, map_location="cpu")
        old = pretrained_dict["positional_embedding"].float()
        self.positional_embedding.data = self.resize_pos_embed_1d(old, (256, old.shape[1]))

    def forward(self, x):
        return self.resize_pos_embed_1d(self.positional_embedding, x.shape)


class ImageEncoder(torch.nn.Module):
    def resize_table(self, table, size):
        return F.interpolate(table.unsqueeze(0), size=size, mode="bicubic")[0]

    def init_weights(self, path):
        checkpoint = torch.load(path, map_location="cpu")
        self.table.data = self.resize_table(checkpoint["table"], (13, 13))
