import torch

print('CUDA available: {}'.format(torch.cuda.is_available()))
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
print(torch.zeros(1).to(device))
