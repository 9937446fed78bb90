import lightning as L
import torch as th


def set_seed(seed):
    th.manual_seed(seed)
    th.cuda.manual_seed_all(seed)


def set_cuda_seed(seed):
    th.cuda.manual_seed(seed)


def main(seed):
    L.seed_everything(seed)
    th.cuda.manual_seed_all(seed)


th.cuda.manual_seed(0)
