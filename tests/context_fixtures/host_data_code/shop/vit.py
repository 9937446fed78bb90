import torch.nn.functional as F


def resize_pos_embed(posemb, size):
    return F.interpolate(posemb, size=size, mode="bicubic")


def checkpoint_filter_fn(state_dict, model):
    state_dict["pos_embed"] = resize_pos_embed(state_dict["pos_embed"], model.grid)
    return state_dict


class Tiles:
    def _load_state_dict_hook(self, state_dict, prefix, *args):
        state_dict[prefix + "embedding"] = self._resize(state_dict[prefix + "embedding"])

    def _resize(self, emb):
        return F.interpolate(emb, scale_factor=2, mode="bilinear")

    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="bicubic")
