import torch

use_cuda = torch.cuda.is_available()
