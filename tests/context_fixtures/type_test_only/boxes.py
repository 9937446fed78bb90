import mmcv.ops as ops  # expect: TRN296


def keep(model, b, s):
    if isinstance(model, ops.RoIPool):
        return b
    return ops.nms(b, s, 0.5)
