import argparse

import torch
import torch.nn as nn


class Flow(nn.Module):
    def forward(self, t):
        return t[t > 0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    print(Flow()(torch.linspace(-1, 1, args.steps)))
