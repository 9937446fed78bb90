import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.zeros(3, dtype=torch.float64).to(device)
print(x.unique())
