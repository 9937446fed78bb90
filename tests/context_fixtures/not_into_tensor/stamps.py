import time

import torch


def stamp(x):
    start = time.time_ns()
    t = torch.tensor([time.time_ns()])
    x.fill_(time.monotonic_ns())
    print(time.perf_counter_ns() - start)
    return t
