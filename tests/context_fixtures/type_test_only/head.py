from mmcv.ops import RoIAlign  # expect: TRN296


class Head(RoIAlign):
    pass
