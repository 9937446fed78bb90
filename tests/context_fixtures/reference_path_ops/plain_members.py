from mmcv.ops.merge_cells import GlobalPoolingCell, SumCell


def build_neck(channels):
    return [SumCell(channels, channels), GlobalPoolingCell(channels, channels)]


def onnx_session(ort):
    from mmcv.ops import get_onnxruntime_op_path

    options = ort.SessionOptions()
    options.register_custom_ops_library(get_onnxruntime_op_path())
    return options
