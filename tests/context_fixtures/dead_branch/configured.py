import torch

compile = False  # a default the configurator may override from the command line
profile = False
exec(open("configurator.py").read())

if profile:
    torch.cuda.synchronize()
