from mmcv.ops.multi_scale_deform_attn import multi_scale_deformable_attn_pytorch

from .ops import MultiScaleDeformableAttnFunction


def attend(value, shapes, start, locations, weights, step):
    # BEVFormer-style modules: the compiled kernel for CUDA tensors, mmcv's pure-PyTorch version otherwise
    if value.is_cuda:
        return MultiScaleDeformableAttnFunction.apply(value, shapes, start, locations, weights, step)
    return multi_scale_deformable_attn_pytorch(value, shapes, locations, weights)
