import numpy as np
import torch


def tab_to_device(X_tab, device):
    X = torch.from_numpy(X_tab.astype("float")).to(device)
    grid = np.linspace(0.0, 1.0, 50)
    g = torch.tensor(grid, device=device)
    ints = X_tab.astype("int64")
    i = torch.from_numpy(ints).to(device)
    f32 = X_tab.astype(np.float32)
    k = torch.from_numpy(f32).to(device)
    w = X_tab.astype(np.float64)
    w = w / w.sum()
    h = torch.from_numpy(w).to(device)
    return X, g, i, k, h


def host_only(X_tab):
    return torch.from_numpy(X_tab.astype(float))
