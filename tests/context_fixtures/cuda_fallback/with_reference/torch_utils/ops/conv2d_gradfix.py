"""A custom conv used only for CUDA tensors (a local check returning False elsewhere); F.conv2d otherwise."""
import torch

enabled = True


def conv2d(input, weight):
    if _should_use_custom_op(input):
        return _conv2d_gradfix(weight.shape).apply(input, weight)
    return torch.nn.functional.conv2d(input, weight)


def _should_use_custom_op(input):
    if not enabled:
        return False
    if input.device.type != "cuda":
        return False
    return True


def _conv2d_gradfix(weight_shape):
    class Conv2d(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input, weight):
            if torch.cuda.get_device_capability(input.device) < (8, 0):  # guarded
                return (weight.flatten(1) @ input.flatten(2)).reshape(input.shape)
            return torch.nn.functional.conv2d(input, weight)

    return Conv2d
