from mmcv.ops import RoIAlign  # expect: TRN296
