"""The project's plugin loader (StyleGAN's torch_utils/custom_ops.py): builds whatever sources it is handed."""
import os

import torch
import torch.utils.cpp_extension


def _gpu_name():
    return torch.cuda.get_device_name().lower()  # only while building: guarded (cuda-only-path)


def get_plugin(module_name, sources, source_dir=None, **build_kwargs):
    sources = [os.path.join(source_dir, s) for s in sources]
    build_dir = os.path.join("/tmp/plugins", f"{module_name}-{_gpu_name()}")
    if os.path.isdir(build_dir):
        torch.utils.cpp_extension.load(name=module_name, build_directory=build_dir, sources=sources, **build_kwargs)
    else:
        torch.utils.cpp_extension.load(name=module_name, sources=sources, **build_kwargs)
    return __import__(module_name)
