import numpy as np
import torch


class Tracker:
    def __init__(self, bins, use_window):
        if use_window:
            self.window = torch.tensor(np.hanning(bins)).unsqueeze(0).cuda()
        self.mask = torch.tensor(np.hanning(bins)).unsqueeze(0).float().cuda()
