"""Imports of modules the project itself compiles from CUDA sources (link step, TRN302 at the import)."""
from conftest import FIXTURES, scan_findings

BUILD = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources): "
SETUP = "`torch.utils.cpp_extension.CUDAExtension`"
LOAD = "`torch.utils.cpp_extension.load`"


def test_imports_of_cuda_extensions_built_by_the_project_and_not_their_look_alikes():
    got = [f for f in scan_findings(FIXTURES / "project_ext", "--no-config") if f[3] == "TRN302"]
    # Not reported: `from . import _cpu` and `import cpu_layer_norm` (extensions built from C++ only),
    # `from .helpers import pad` / `from fastops import helpers` (a CUDAExtension names fastops.helpers, but
    # the project holds fastops/helpers.py: the import is that Python module).
    assert got == [
        ("fastops/__init__.py", 1, 1, "TRN302", BUILD + SETUP + " (via fastops/__init__.py:1 from . import _C → "
         "setup.py:7 CUDAExtension(name='fastops._C'))", False),
        ("fastops/attn.py", 1, 1, "TRN302", BUILD + SETUP + " (via fastops/attn.py:1 import fastops._C → "
         "setup.py:7 CUDAExtension(name='fastops._C'))", False),
        ("fastops/attn.py", 2, 1, "TRN302", BUILD + SETUP + " (via fastops/attn.py:2 from fastops._C import "
         "fused_add → setup.py:7 CUDAExtension(name='fastops._C'))", False),
        ("kernels/build.py", 3, 14, "TRN302", BUILD + LOAD, False),
        ("kernels/norm.py", 7, 9, "TRN302", BUILD + LOAD + " (via kernels/norm.py:7 import fused_layer_norm → "
         "kernels/build.py:3 load(name='fused_layer_norm'))", False),
        ("setup.py", 7, 9, "TRN302", BUILD + SETUP, False),
    ]


def test_dockerfile_steps_that_build_a_cuda_extension_of_the_project_and_not_their_look_alikes():
    got = scan_findings(FIXTURES / "docker_build", "--no-config")
    # Not reported: `pip install /opt/tools` (tools/setup.py builds a C++-only extension), the setup.py of a
    # repository cloned inside the image (not from the build context), `pip install -e .` of the root
    # package (its setup.py builds no extension), a path copied from another build stage (`COPY --from=`).
    assert got == [
        ("csrc/setup.py", 6, 18, "TRN302", BUILD + SETUP, False),
        ("docker/Dockerfile", 4, 1, "TRN302", BUILD + SETUP + " (via docker/Dockerfile:4 python setup.py install → "
         "csrc/setup.py:6 CUDAExtension(name='fastops_cuda'))", False),
    ]
