import torch

# a lone module constant is the module's interface: another project may import it
DEVICE = torch.device("cuda")
