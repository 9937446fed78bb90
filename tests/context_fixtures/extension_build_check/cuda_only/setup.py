import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

if torch.cuda.is_available():
    sources = ["ops/bind.cpp", "ops/kernels.cu"]
else:
    raise RuntimeError("ops needs a CUDA device to build")
setup(name="ops", ext_modules=[CUDAExtension("ops._C", sources)], cmdclass={"build_ext": BuildExtension})
