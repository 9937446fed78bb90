import os

import torch

if False:
    torch.cuda.synchronize()
print("a")
if 0:
    torch.cuda.empty_cache()
print("b")
if None:
    torch.cuda.ipc_collect()
print("c")
if not True:
    torch.cuda.synchronize()
print("d")
while False:
    torch.cuda.empty_cache()
print("e")
if True:
    print("f")
else:
    torch.cuda.ipc_collect()
print("g")
if True:
    print("h")
elif os.environ.get("SYNC"):
    torch.cuda.synchronize()
print("i")
if False and os.environ.get("SYNC"):
    torch.cuda.empty_cache()
print("j")
dev = torch.cuda.current_device() if False else 0
print("k")
if True:
    torch.cuda.synchronize()
print("m")
other = 0 if False else torch.cuda.current_device()
print("n")
if print("o") or True:
    torch.cuda.empty_cache()
print("p")
while True:
    torch.cuda.ipc_collect()
    break


def ready():
    return 0 and torch.cuda.synchronize()


def not_ready(x):
    return x and torch.cuda.synchronize()
