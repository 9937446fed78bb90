import torch
from setuptools import setup
from torch.utils.cpp_extension import CppExtension, CUDAExtension

if torch.cuda.is_available():
    ext = CUDAExtension("gpu_nms", ["nms_kernel.cu"])
else:
    raise EnvironmentError("CUDA is required")
host = CppExtension("host_ops", ["ops.cpp"])
setup(name="ops", ext_modules=[ext, host])
