import torch
import torch.nn.functional as F


def encode(img, h, w, vae):
    # the input is taken to the host in the call itself: the resize runs on the CPU
    y = F.interpolate(img[None].cpu(), size=(h, w), mode="bicubic").transpose(0, 1)
    if h:
        z = F.interpolate(img.to("cpu").float(), size=(h, w), mode="bilinear")
    # a .cpu() of the result: the resize ran where img is
    up = F.interpolate(img, size=(h, w), mode="bilinear").cpu()
    if w:
        # the input is taken to the GPU
        dev = F.interpolate(img.cuda(), size=(h, w), mode="bicubic")
    return vae.encode([y, z, up, dev])
