import numpy as np
import torch


class Agent:
    def __init__(self, init_temperature, device, schedule):
        self.log_alpha = torch.tensor(np.log(init_temperature)).to(device)
        self.betas = torch.from_numpy(np.linspace(1e-4, 0.02, 1000)).to(device)
        self.noise = torch.as_tensor(np.random.randn(4, 3), device=device)
        self.kept = torch.tensor(np.log(init_temperature), dtype=torch.float32).to(device)
        self.host = torch.tensor(np.log(init_temperature)).to("cpu")
        self.cast = torch.tensor(np.log(init_temperature)).to(torch.float32)
        self.loaded = torch.from_numpy(np.load("w.npy")).to(device)
        self.given = torch.from_numpy(np.sqrt(schedule + 1)).to(device)
        self.typed = torch.from_numpy(np.zeros(3, dtype=np.float32)).to(device)
        self.later = torch.tensor(np.exp(1.0))
        self.painting = torch.from_numpy(np.zeros((4, 4))).to(device)
