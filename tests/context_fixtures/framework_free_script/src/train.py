import sys

import torch

model = torch.nn.Linear(2, 2)
if __name__ == "__main__":
    for epoch in xrange(int(sys.argv[1])):
        model.zero_grad()
