import os

from torch.utils.cpp_extension import load

# built at import, on every device: the CUDA file it compiles stays a blocker
fir_plugin = load("fir_plugin", sources=[os.path.join(os.path.dirname(__file__), "upfirdn.cu")])  # expect: TRN302
