"""`test.py` beside the setup.py that builds a CUDA extension is the extension's own check script (Deformable-DETR's
`models/ops/test.py`, copied with the operator): guarded `cuda-kernel-test`; an evaluation script named test.py
elsewhere, or beside a setup.py building no CUDA, stays (postprocess_kernel_tests.extension_check_scripts)."""
from conftest import guarded_rows, write

SETUP = """\
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="MultiScaleDeformableAttention",
    ext_modules=[CUDAExtension("MultiScaleDeformableAttention", ["src/vision.cpp", "src/cuda/attn.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
"""

CHECK = """\
import torch
from torch.autograd import gradcheck

from functions.ms_deform_attn_func import MSDeformAttnFunction

shapes = torch.as_tensor([(6, 4), (3, 2)], dtype=torch.long).cuda()


def check_forward():
    value = torch.rand(2, 30, 8, 32).cuda() * 0.01
    return MSDeformAttnFunction.apply(value.double(), shapes)
"""

EVAL = """\
import torch


def main(model):
    model = model.cuda()
    return model
"""

CPU_SETUP = """\
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(name="nms", ext_modules=[CppExtension("nms", ["nms.cpp"])], cmdclass={"build_ext": BuildExtension})
"""


def test_the_check_script_of_a_cuda_extension_is_guarded(tmp_path):
    write(tmp_path, "models/ops/setup.py", SETUP)
    write(tmp_path, "models/ops/test.py", CHECK)
    write(tmp_path, "tools/test.py", EVAL)
    write(tmp_path, "cpu_ops/setup.py", CPU_SETUP)
    write(tmp_path, "cpu_ops/test.py", EVAL)
    rows = guarded_rows(tmp_path, "--no-gitignore")
    check = [r for r in rows if r[0] == "models/ops/test.py"]
    assert check == [("models/ops/test.py", 6, 10, "TRN241", "cuda-kernel-test"),
                     ("models/ops/test.py", 10, 13, "TRN241", "cuda-kernel-test"),
                     ("models/ops/test.py", 11, 39, "TRN122", "cuda-kernel-test")]
    assert ("tools/test.py", 5, 13, "TRN241", "") in rows
    assert ("cpu_ops/test.py", 5, 13, "TRN241", "") in rows
