from mmcv.ops import DeformConv2d  # expect: TRN296


def build(c):
    conv = DeformConv2d(c, c, 3)
    assert isinstance(conv, DeformConv2d)
    return conv
