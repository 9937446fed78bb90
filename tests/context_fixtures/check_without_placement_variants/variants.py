import torch


def devices_to_try():
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
