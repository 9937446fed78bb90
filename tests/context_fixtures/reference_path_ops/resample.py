try:
    from mmcv.ops import filter2d, upsample2d
except ImportError:
    filter2d = upsample2d = None
from mmcv.ops.upfirdn2d import downsample2d
from mmcv.ops import bias_act, ModulatedDeformConv2d  # expect: TRN296
import mmcv.ops  # expect: TRN296


def blur(x, f):
    return downsample2d(filter2d(upsample2d(x, f), f), f)


def act(x, b):
    return bias_act(x, b, act="lrelu")


def conv(x, offset, mask):
    layer = ModulatedDeformConv2d(8, 8, 3)
    return layer(x, offset, mask), mmcv.ops.nms
