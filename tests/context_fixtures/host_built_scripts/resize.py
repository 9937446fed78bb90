import json
import math

import torch
import torch.nn.functional as F

config = json.load(open("config.json"))
weights = torch.load("in.pt", map_location="cpu")
grid = weights["pos"].unsqueeze(0)
side = math.sqrt(grid.shape[1])
rows, cols = config["rows"], config["cols"]
rows, cols = rows + 0.1, cols + 0.1
grid = grid.reshape(1, int(side), int(side), -1).permute(0, 3, 1, 2)
grid = F.interpolate(grid, scale_factor=(rows / side, cols / side), mode="bicubic")
if int(rows) != grid.shape[-2] or int(cols) != grid.shape[-1]:
    raise ValueError(f"{int(rows), int(cols)} != {grid.shape[-2], grid.shape[-1]}")
grid = grid.permute(0, 2, 3, 1).flatten(1, 2)
grid = grid.squeeze(0)
torch.save({"pos": grid}, "out.pt")
