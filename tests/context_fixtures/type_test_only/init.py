from mmcv.ops import MultiScaleDeformableAttention  # expect: TRN296


def init_weights(model):
    for m in model.modules():
        if isinstance(m, MultiScaleDeformableAttention):
            m.init_weights()
