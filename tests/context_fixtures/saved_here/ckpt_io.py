import torch as th


def roundtrip(obj, path):
    th.save(obj, path)
    return th.load(path)


def restore(path):
    return th.load(path)


def save_later(obj, path):
    state = th.load(path)
    th.save(obj, path)
    return state


def writer(obj, path):
    th.save(obj, path)


CKPT = th.load("pretrained.pt")
