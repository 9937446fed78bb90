import torch

from settings import IMPORTED_FLAG

PROFILE = False
VERBOSE = False
SHADOWED = False
DELETED = None


def enable():
    global PROFILE
    PROFILE = True


def run(VERBOSE=True):
    if VERBOSE:
        torch.cuda.synchronize()
    if PROFILE:
        torch.cuda.empty_cache()
    if IMPORTED_FLAG:
        torch.cuda.ipc_collect()


for SHADOWED in (True,):
    pass

del DELETED
if SHADOWED:
    torch.cuda.synchronize()
print("a")
if DELETED:
    torch.cuda.empty_cache()
print("b")
BY_NAME = False


def turn_on():
    globals()["BY_NAME"] = True


if BY_NAME:
    torch.cuda.ipc_collect()
