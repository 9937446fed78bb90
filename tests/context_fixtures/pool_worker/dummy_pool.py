from multiprocessing.dummy import Pool

import torch.nn.functional as F


def upscale(result):
    return F.interpolate(result.unsqueeze(0), scale_factor=2, mode="bilinear")  # expect: TRN191


def main(results):
    pool = Pool(4)
    return pool.map(upscale, results)
