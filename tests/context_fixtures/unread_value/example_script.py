import argparse

import torch

parser = argparse.ArgumentParser()
args = parser.parse_args()

# a script's pick nobody reads (pytorch-frame's tuned_gbdt.py: the GBDT runs on the CPU)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# a script's pick it reads stays
used = "cuda" if torch.cuda.is_available() else "cpu"
print(torch.zeros(2).to(used))
torch.cuda.synchronize()
# a question about the machine answered and never read (segmentation trainer's WORLD_SIZE)
WORLD_SIZE = torch.cuda.device_count()
