from mmcv.utils import ext_loader

from .attn_function import MSDeformAttnFunction

ext_module = ext_loader.load_ext(
    '_ext', ['ms_deform_attn_backward', 'ms_deform_attn_forward'])


def encode(value, shapes, locations, weights):
    return MSDeformAttnFunction.apply(value, shapes, locations, weights)
