import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

if torch.cuda.is_available():
    ext = [CUDAExtension("gpu_nms", ["nms_kernel.cu"])]
else:
    ext = []
setup(name="ops", ext_modules=ext)
