from multiprocessing.pool import ThreadPool

import torch.nn.functional as F


def upscale(result):
    return F.interpolate(result.unsqueeze(0), scale_factor=2, mode="bilinear")  # expect: TRN191


def main(results):
    with ThreadPool(4) as pool:
        return pool.map(upscale, results)
