import torch
from transformers import Trainer

if __name__ == "__main__":
    Trainer(model=torch.nn.Linear(2, 2).double()).train()
