import torch
import torch.nn.functional as F


def load_for_finetune(args, model):
    if args.finetune.startswith("https"):
        checkpoint = torch.hub.load_state_dict_from_url(args.finetune, map_location="cpu")
    else:
        checkpoint = torch.load(args.finetune, map_location="cpu")
    weights = checkpoint["model"]
    pos = weights["pos_embed"][:, 1:].reshape(1, 14, 14, -1).permute(0, 3, 1, 2)
    pos = F.interpolate(pos, size=(16, 16), mode="bicubic")
    weights["pos_embed"] = pos
    model.load_state_dict(weights)


def load_on_the_device(path, model):
    checkpoint = torch.load(path, map_location="cuda")
    pos = checkpoint["pos_embed"]
    return F.interpolate(pos, size=(16, 16), mode="bicubic")


def load_then_move(path, model, device):
    checkpoint = torch.load(path, map_location="cpu")
    pos = checkpoint["pos_embed"].to(device)
    return F.interpolate(pos, size=(16, 16), mode="bicubic")


def load_where_saved(path):
    checkpoint = torch.load(path)
    return F.interpolate(checkpoint["pos_embed"], size=(16, 16), mode="bicubic")
