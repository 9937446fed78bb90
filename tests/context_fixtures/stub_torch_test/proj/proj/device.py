import sys
import types


def pick_device():
    import torch
    return "cuda" if torch.cuda.is_available() else "cpu"


def fake_for_docs():
    sys.modules["torch"] = types.ModuleType("torch")
    return "cuda"
