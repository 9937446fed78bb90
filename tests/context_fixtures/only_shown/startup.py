import torch

print('CUDA available: {}'.format(torch.cuda.is_available()))
use_cuda = torch.cuda.is_available()
