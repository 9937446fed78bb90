import torch

EXP_SHIFT = 23


def exponent(w):
    bits = w.float().view(torch.int32)
    return torch.bitwise_right_shift(bits, EXP_SHIFT) & 0xFF


def pack(lo, hi):
    return torch.bitwise_left_shift(hi.int(), 16) | lo


def mix(keys, seed):
    return torch.bitwise_xor(keys.to(torch.int64), seed)


def widen(codes):
    wide = codes.to(torch.int32)
    wide = wide.to(torch.int64)
    return wide.bitwise_left_shift(32)


def narrow_method(codes):
    return codes.to(dtype=torch.int16).bitwise_right_shift(4)


def mantissa_top(w, half):
    int_dtype = torch.int32
    if half:
        int_dtype = torch.int16
    bits = w.view(int_dtype)
    return torch.bitwise_right_shift(bits, 7)


def any_width(w, int_dtype):
    return torch.bitwise_right_shift(w.view(int_dtype), 7)
