import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

if torch.cuda.is_available() or os.getenv("WITH_CUDA") == "1":
    flavour = "gpu"
    sources = ["ops/bind_gpu.cpp", "ops/kernels.cu"]
else:
    flavour = "host"
    sources = ["ops/bind_host.cpp"]

Ext = CUDAExtension if flavour == "gpu" else CppExtension
setup(name="ops", ext_modules=[Ext("ops._C", sources)], cmdclass={"build_ext": BuildExtension})
