import torch

if __name__ == "__main__":
    print(torch.zeros(3, dtype=torch.float64).sum())
