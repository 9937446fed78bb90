import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension


def get_extensions():
    sources = ["csrc/vision.cpp", "csrc/cpu/nms.cpp"]
    extension = CppExtension
    if (torch.cuda.is_available() and CUDA_HOME is not None) or os.getenv("FORCE_CUDA", "0") == "1":
        extension = CUDAExtension
        sources += ["csrc/cuda/nms.cu"]
    return [extension("pkg._C", sources)]


setup(name="pkg", ext_modules=get_extensions())
