from mmcv.utils import ext_loader
from torch.autograd import Function

ext_module = ext_loader.load_ext(
    '_ext', ['ms_deform_attn_backward', 'ms_deform_attn_forward'])


class MSDeformAttnFunction(Function):
    @staticmethod
    def forward(ctx, value, shapes, locations, weights):
        return ext_module.ms_deform_attn_forward(value, shapes, locations, weights)
