"""One finding per custom CUDA extension (report step postprocess_extensions): the imports of a module the project
builds, the CUDA files that define no kernel of their own and the calls of a JIT-built module are places of the build's
or the kernel file's finding; the project's own extension names are not a third-party library; a build picked into a
name is found; a build under `CUDA_HOME is not None` never happens on Neuron."""
import json

from conftest import run_cli

BUILD = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources): "
SETUP = BUILD + "`torch.utils.cpp_extension.CUDAExtension`"
LOAD = BUILD + "`torch.utils.cpp_extension.load`"
KERNEL = "__global__ void scale_kernel(float* x) { x[threadIdx.x] *= 2.f; }\n"


def write(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def scan(tmp_path, *rules):
    """(path, line, column, rule, message, guarded, occurrences, elsewhere) of every finding (--show-guarded)."""
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", "--no-config", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f["guarded"],
             [o["line"] for o in f.get("occurrences", ())],
             [(o["path"], o["line"], o["column"]) for o in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"] if not rules or f["rule"] in rules]


# ---------------------------------------------------------------- the project's own extension names (class 1)
APEX_SETUP = '''from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fusedopt",
    packages=["fusedopt"],
    ext_modules=[CUDAExtension(name="amp_C", sources=["csrc/amp_C.cpp", "csrc/scale_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
'''
FUSED_ADAM = '''import torch


class FusedAdam(torch.optim.Optimizer):
    def __init__(self, params):
        import amp_C

        self.scale = amp_C.multi_tensor_scale
        super().__init__(params, {})
'''


def test_an_extension_the_project_builds_is_its_own_code_and_its_imports_are_places_of_the_build(tmp_path):
    write(tmp_path, {"setup.py": APEX_SETUP, "fusedopt/__init__.py": "", "fusedopt/adam.py": FUSED_ADAM,
                     "fusedopt/sgd.py": "import amp_C\n\n\ndef step(ts):\n    return amp_C.multi_tensor_sgd(ts)\n",
                     "csrc/scale_kernel.cu": KERNEL})
    # `import amp_C` is apex's name, but here the project builds amp_C itself: no NVIDIA Apex finding (TRN283),
    # and the two imports are places of the one build finding
    assert scan(tmp_path, "TRN283", "TRN302") == [
        ("setup.py", 7, 18, "TRN302", SETUP + "; imported at fusedopt/adam.py:6, fusedopt/sgd.py:1", False, [],
         [("fusedopt/adam.py", 6, 9), ("fusedopt/sgd.py", 1, 1), ("fusedopt/sgd.py", 5, 12)]),
    ]


def test_the_same_import_without_a_build_of_that_name_is_the_third_party_library(tmp_path):
    # look-alike: the project builds another extension; `import amp_C` is Apex's, installed from elsewhere
    write(tmp_path, {"setup.py": APEX_SETUP.replace('name="amp_C"', 'name="fusedopt_C"'), "fusedopt/__init__.py": "",
                     "fusedopt/adam.py": FUSED_ADAM, "csrc/scale_kernel.cu": KERNEL})
    got = scan(tmp_path, "TRN283", "TRN302")
    assert [(p, ln, rule) for p, ln, _c, rule, *_ in got] == [("fusedopt/adam.py", 6, "TRN283"), ("setup.py", 7, "TRN302")]


# ---------------------------------------------------------------- a build class picked into a name (class 4)
PICKED_SETUP = '''import torch
from setuptools import setup
from torch.utils.cpp_extension import CppExtension, CUDAExtension


def get_extensions():
    sources = ["src/vision.cpp", "src/cuda/attn_cuda.cu"]
    extension = CppExtension
    extension = CUDAExtension
    return [extension("MultiScaleAttn", sources, define_macros=[("WITH_CUDA", None)])]


setup(name="msattn", ext_modules=get_extensions())
'''
ATTN_FUNC = '''import torch
import MultiScaleAttn as MSA


class AttnFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, value):
        return MSA.attn_forward(value)
'''
ATTN_MODULE = '''from torch import nn

from ..functions import AttnFunction


class Attn(nn.Module):
    def forward(self, value):
        return AttnFunction.apply(value)
'''
LAUNCHER = '#include "cuda/attn_im2col.cuh"\nvoid attn_forward(float* x) { scale_kernel<<<1, 32>>>(x); }\n'


def _ops(setup: str) -> dict:
    return {"ops/setup.py": setup, "ops/functions/__init__.py": "from .attn_func import AttnFunction\n",
            "ops/functions/attn_func.py": ATTN_FUNC, "ops/modules/__init__.py": "",
            "ops/modules/attn.py": ATTN_MODULE, "ops/src/cuda/attn_im2col.cuh": KERNEL,
            "ops/src/cuda/attn_cuda.cu": LAUNCHER}


def test_a_build_class_picked_into_a_name_is_the_build_and_the_op_chain_is_its_places(tmp_path):
    write(tmp_path, _ops(PICKED_SETUP))
    assert scan(tmp_path, "TRN302", "TRN601") == [
        # the pick `extension = CUDAExtension` is the build (its call names the module); the module importing the
        # extension at its top and its call of the extension, the module importing that one and its
        # `AttnFunction.apply(...)` are its places
        ("ops/setup.py", 9, 17, "TRN302", SETUP + "; imported at ops/functions/attn_func.py:2, ops/modules/attn.py:3",
         False, [], [("ops/functions/attn_func.py", 2, 1), ("ops/functions/attn_func.py", 8, 16),
                     ("ops/modules/attn.py", 3, 1), ("ops/modules/attn.py", 8, 16)]),
        # the launcher includes the kernel header through the include directory ops/src: a place of it
        ("ops/src/cuda/attn_im2col.cuh", 1, 1, "TRN601", "CUDA source file: 1 __global__ kernel to port to NKI "
         "(scale_kernel); also the files that include it and define no kernel: ops/src/cuda/attn_cuda.cu", False, [],
         [("ops/src/cuda/attn_cuda.cu", 1, 1)]),
    ]


def test_a_cpp_only_class_picked_into_a_name_builds_no_cuda(tmp_path):
    # look-alike: only CppExtension is picked; the import of the module it builds is the project's C++ code
    write(tmp_path, {"ops/setup.py": PICKED_SETUP.replace("    extension = CUDAExtension\n", "").replace(
        ', "src/cuda/attn_cuda.cu"', ""), "ops/functions/__init__.py": "", "ops/functions/attn_func.py": ATTN_FUNC})
    assert scan(tmp_path, "TRN302") == []


GUARDED_SETUP = '''import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension


def get_extensions():
    sources = ["src/vision.cpp"]
    extension = CppExtension
    if torch.cuda.is_available() and CUDA_HOME is not None:
        extension = CUDAExtension
        sources += ["src/cuda/attn_cuda.cu"]
    else:
        return []  # (no build without CUDA: a raise here would make the CUDA build the only path, never a guard)
    return [extension("MultiScaleAttn", sources)]


setup(name="msattn", ext_modules=get_extensions())
'''


def test_an_import_stays_the_finding_when_the_build_is_guarded_and_nothing_catches_its_failure(tmp_path):
    # the build runs only where CUDA is (guarded); the model imports the extension with no fallback, so the import
    # is the item on Neuron, and the module importing that one (with its call) is its place
    write(tmp_path, _ops(GUARDED_SETUP))
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, guarded, places) for p, ln, _c, _r, _m, guarded, _o, places in got] == [
        ("ops/functions/attn_func.py", 2, False, [("ops/modules/attn.py", 3, 1), ("ops/modules/attn.py", 8, 16)]),
        ("ops/setup.py", 10, True, []),
    ]
    assert got[0][4] == SETUP + " (via ops/functions/attn_func.py:2 import MultiScaleAttn → ops/setup.py:10 " \
        "extension(name='MultiScaleAttn')); imported at ops/modules/attn.py:3"


OPTIONAL_IMPORT = '''import warnings

import torch

try:
    import MultiScaleAttn as MSA
except:
    warnings.warn("Failed to load custom C++ ops. Running on CPU mode Only!")


def attn(value):
    if torch.cuda.is_available() and value.is_cuda:
        return MSA.attn_forward(value)
    return value * 2
'''


def test_an_import_that_goes_on_without_a_guarded_build_is_guarded(tmp_path):
    # look-alike: built only under CUDA_HOME; the import sits in a try whose handler goes on: on Neuron the
    # extension is never built and the fallback runs (guarded, optional-extension)
    setup = GUARDED_SETUP.replace("torch.cuda.is_available() and CUDA_HOME is not None",
                                  "CUDA_HOME is not None").replace(
        '        raise NotImplementedError("Cuda is not available")', "        return []")
    write(tmp_path, {"ops/setup.py": setup, "ops/functions/__init__.py": "", "ops/functions/attn.py": OPTIONAL_IMPORT})
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", "--no-config", cwd=tmp_path)
    found = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"]
    assert [(f["path"], f["line"], f["guarded"], f.get("guarded_by"), f.get("elsewhere")) for f in found] == [
        ("ops/setup.py", 10, True, "neuron-guarded",
         [{"path": "ops/functions/attn.py", "line": 6, "column": 5, "rule": "TRN302"}]),
    ]
    # hit: a handler that raises again gives no fallback; the import stays the item
    write(tmp_path, {"ops/functions/attn.py": OPTIONAL_IMPORT.replace(
        '    warnings.warn("Failed to load custom C++ ops. Running on CPU mode Only!")',
        '    raise ImportError("build the ops first")')})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, guarded) for p, ln, _c, _r, _m, guarded, *_ in got] == [
        ("ops/functions/attn.py", 6, False), ("ops/setup.py", 10, True)]


def test_an_import_of_a_module_that_needs_a_guarded_build_goes_on_in_a_try(tmp_path):
    # attn_func.py imports the extension with no fallback (the finding); model.py imports attn_func in a try
    # whose handler binds a fallback: attn_func fails to import on Neuron, so the fallback runs (guarded)
    write(tmp_path, {**_ops(GUARDED_SETUP), "ops/modules/attn.py": "", "model.py":
                     "try:\n    from ops.functions import AttnFunction\nexcept ImportError:\n    AttnFunction = None\n"})
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", "--no-config", cwd=tmp_path)
    found = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"]
    assert [(f["path"], f["line"], f["guarded"], f.get("guarded_by"), f.get("elsewhere")) for f in found] == [
        ("model.py", 2, True, "optional-extension", None),
        ("ops/functions/attn_func.py", 2, False, None, None),
        ("ops/setup.py", 10, True, "neuron-guarded", None),
    ]


def test_cuda_home_tests_guard_the_build_and_a_project_variable_of_that_name_does_not(tmp_path):
    setup = '''import os
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CUDAExtension

if CUDA_HOME is not None:
    ext = [CUDAExtension("a_cuda", ["a.cu"])]
if "CUDA_HOME" in os.environ:
    ext = [CUDAExtension("b_cuda", ["b.cu"])]
setup(name="p", ext_modules=ext)
'''
    write(tmp_path, {"setup.py": setup})
    assert [(ln, guarded) for _p, ln, _c, _r, _m, guarded, *_ in scan(tmp_path, "TRN302")] == [(6, True), (8, True)]
    # look-alike: the project's own CUDA_HOME (a default path) is never None; the build stays reported
    write(tmp_path, {"setup.py": setup.replace("from torch.utils.cpp_extension import CUDA_HOME, CUDAExtension",
                                               'from torch.utils.cpp_extension import CUDAExtension\n'
                                               'CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")')})
    assert [(ln, guarded) for _p, ln, _c, _r, _m, guarded, *_ in scan(tmp_path, "TRN302")] == [(7, False), (9, True)]


# ---------------------------------------------------------------- CUDA files without a kernel (class 3)
def test_a_macro_instantiation_file_is_a_place_of_the_kernel_header_and_host_glue_stays(tmp_path):
    write(tmp_path, {
        "csrc/gn/gn_kernel.cuh": "#pragma once\n" + KERNEL,
        "csrc/gn/gn_host_template.cuh": '#pragma once\n#include "gn_kernel.cuh"\n#define GN_INST(C) void run##C();\n',
        "csrc/gn/gn_inst_128.cu": '#include "gn_host_template.cuh"\n\nnamespace gn {\nGN_INST(128)\n}\n',
        # look-alike: host glue that includes no kernel file of the project stays its own item
        "csrc/ipc/ipc.cu": "#include <cuda.h>\nint handle() { cudaIpcMemHandle_t h; return 0; }\n",
    })
    got = scan(tmp_path, "TRN601")
    assert [(p, ln, places) for p, ln, _c, _r, _m, _g, _o, places in got] == [
        ("csrc/gn/gn_kernel.cuh", 1, [("csrc/gn/gn_host_template.cuh", 1, 1), ("csrc/gn/gn_inst_128.cu", 1, 1)]),
        ("csrc/ipc/ipc.cu", 1, []),
    ]


# ---------------------------------------------------------------- a module that JIT-builds at import (5, 6)
FUSED = '''import os

import torch
from torch.autograd import Function
from torch.nn import functional as F
from torch.utils.cpp_extension import load

fused = load("fused", sources=[os.path.join("op", "fused_bias_act.cpp"), os.path.join("op", "fused_kernel.cu")])


class FusedFunction(Function):
    @staticmethod
    def forward(ctx, x):
        return fused.fused_bias_act(x)


def fused_act(x):
    if x.device.type == "cpu":
        return F.leaky_relu(x)
    else:
        return FusedFunction.apply(x)


def fused_act_cuda_only(x):
    if x.device.type == "cuda":
        return FusedFunction.apply(x)
    return F.leaky_relu(x)
'''
MODEL = '''from torch import nn

from op import fused_act


class Block(nn.Module):
    def forward(self, x):
        return fused_act(x)
'''


def test_calls_of_a_jit_built_module_and_imports_of_its_package_are_places_of_the_build(tmp_path):
    write(tmp_path, {"op/__init__.py": "from .fused import fused_act\n", "op/fused.py": FUSED, "model.py": MODEL})
    assert scan(tmp_path, "TRN302") == [
        # hit: the op call in its own file (line 14), the `else` of a test against "cpu" (line 21: every other
        # device, neuron included, takes it). Look-alike: the arm of `x.device.type == "cuda"` (line 26) never
        # runs on Neuron, so it is no place. model.py imports the package whose import builds the kernels.
        ("op/fused.py", 8, 9, "TRN302", LOAD + "; imported at model.py:3", False, [14, 21],
         [("model.py", 3, 1), ("model.py", 8, 16)]),
    ]


# ---------------------------------------------------------------- the calls of a built module (py14)
CALLS_SETUP = APEX_SETUP.replace('name="amp_C"', 'name="awq_engine"')
QMODULE = '''import torch
import awq_engine  # with CUDA kernels


class WQLinear(torch.nn.Module):
    def forward(self, x):
        return awq_engine.gemv_forward_cuda_new(x, self.qweight)
'''
OPTIONAL_QMODULE = '''import warnings

import torch

try:
    import awq_engine
except ImportError:
    warnings.warn("no CUDA ops: CPU only")


def forward(x):
    if torch.cuda.is_available() and x.is_cuda:
        return awq_engine.gemv_forward_cuda_new(x)
    return x
'''


def test_the_calls_of_a_built_module_are_places_of_the_build_unless_the_file_goes_on_without_it(tmp_path):
    # llm-awq: `import awq_inference_engine` then `awq_inference_engine.gemv_forward_cuda_new(...)`: the call is where
    # a port edits, a place of the build like the import. Look-alike (GroundingDINO's `_C`): an import the file goes
    # on without; its calls sit on the CUDA path the file picks elsewhere, and only the import is a place
    write(tmp_path, {"setup.py": CALLS_SETUP, "fusedopt/__init__.py": "", "fusedopt/qmodule.py": QMODULE,
                     "fusedopt/optional.py": OPTIONAL_QMODULE, "csrc/scale_kernel.cu": KERNEL})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, places) for p, ln, _c, _r, _m, _g, _o, places in got] == [
        ("setup.py", 7, [("fusedopt/optional.py", 6, 5), ("fusedopt/qmodule.py", 2, 1), ("fusedopt/qmodule.py", 7, 16)]),
    ]


# ---------------------------------------------------------------- session 16: kernels a scan used to miss
PRINT_ONLY = '''import torch

try:
    import scale_ext
except:
    print("CUDA extension not installed.")


class ScaledLinear(torch.nn.Module):
    def forward(self, x):
        y = torch.zeros_like(x)
        scale_ext.scale_forward(x, y)
        return y
'''


def test_a_handler_that_only_prints_is_no_fallback_and_the_calls_stay_places_of_the_build(tmp_path):
    # hit: the handler binds nothing and the file never picks another path: the calls run (and fail) on Neuron
    setup = APEX_SETUP.replace('name="amp_C"', 'name="scale_ext"')
    write(tmp_path, {"setup.py": setup, "fusedopt/__init__.py": "", "fusedopt/linear.py": PRINT_ONLY,
                     "csrc/scale_kernel.cu": KERNEL})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, places) for p, ln, _c, _r, _m, _g, _o, places in got] == [
        ("setup.py", 7, [("fusedopt/linear.py", 4, 5), ("fusedopt/linear.py", 12, 9)]),
    ]
    # look-alike: the same handler in a file that checks for CUDA before the call: only the import is a place
    write(tmp_path, {"fusedopt/linear.py": PRINT_ONLY.replace(
        "        scale_ext.scale_forward(x, y)\n",
        "        if x.is_cuda:\n            scale_ext.scale_forward(x, y)\n")})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, places) for p, ln, _c, _r, _m, _g, _o, places in got] == [
        ("setup.py", 7, [("fusedopt/linear.py", 4, 5)]),
    ]


SELF_NAMED = '''import torch

from scaleop import scale_fwd


def scale(x):
    return scale_fwd(x)
'''


def test_an_import_named_like_the_importing_file_is_the_extension_it_builds(tmp_path):
    # ops/scaleop.py (ops/ has no __init__.py, so it is also importable as `scaleop`) imports `scaleop`, the
    # extension csrc/scaleop/setup.py builds: a module does not import itself, so it is the build
    setup = APEX_SETUP.replace('name="amp_C"', 'name="scaleop"').replace("csrc/", "")
    write(tmp_path, {"csrc/scaleop/setup.py": setup, "csrc/scaleop/scale_kernel.cu": KERNEL,
                     "ops/scaleop.py": SELF_NAMED,
                     "model.py": "try:\n    from ops.scaleop import scale\nexcept ImportError:\n    scale = None\n"})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, g, places) for p, ln, _c, _r, _m, g, _o, places in got] == [
        ("csrc/scaleop/setup.py", 7, False, [("ops/scaleop.py", 3, 1), ("ops/scaleop.py", 7, 12)]),
        # look-alike: model.py's import of that module has a working fallback (the extension is missing on Neuron)
        ("model.py", 2, True, []),
    ]
    # look-alike: a module of that name that is another file is that module, not the extension
    write(tmp_path, {"ops/other.py": SELF_NAMED, "ops/scaleop.py": "def scale_fwd(x):\n    return x * 2\n"})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, places) for p, ln, _c, _r, _m, _g, _o, places in got] == [("csrc/scaleop/setup.py", 7, [])]


RAISE_IN_BRANCH = '''import sys
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension

ext_modules = []
if "--no_kernels" not in sys.argv:
    if CUDA_HOME is None:
        raise RuntimeError("nvcc was not found")
    ext_modules.append(
        CppExtension("pkg.softmax_cuda", sources=["softmax.cpp", "softmax_cuda.cu"],
                     extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3"]}))
    ext_modules.append(CUDAExtension(name="fused_adam_cuda", sources=["adam.cpp", "adam_kernel.cu"]))
    ext_modules.append(CppExtension(name="flatten_C", sources=["flatten.cpp"]))
setup(name="pkg", ext_modules=ext_modules)
'''


def test_builds_after_a_cuda_home_requirement_in_a_branch_stay_findings(tmp_path):
    # hit: `if CUDA_HOME is None: raise` stops the build without CUDA; what follows is the build to port (a
    # CppExtension handed .cu sources builds CUDA kernels too). Look-alike: the CppExtension of .cpp files only
    write(tmp_path, {"setup.py": RAISE_IN_BRANCH})
    got = scan(tmp_path, "TRN302")
    # (the builds of one setup.py are one finding, the later ones its places)
    assert [(p, ln, c, g, occ) for p, ln, c, _r, _m, g, occ, _e in got] == [("setup.py", 10, 9, False, [12])]
    # look-alike: a `return` is no requirement (the caller goes on without the kernels): the builds stay guarded
    write(tmp_path, {"setup.py": """import sys
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CUDAExtension


def extensions():
    if "--no_kernels" not in sys.argv:
        if CUDA_HOME is None:
            return []
        return [CUDAExtension(name="fused_adam_cuda", sources=["adam.cpp", "adam_kernel.cu"])]
    return []
"""})
    got = scan(tmp_path, "TRN302")
    assert [(p, ln, g) for p, ln, _c, _r, _m, g, _o, _e in got] == [("setup.py", 10, True)]


def test_a_file_declaring_the_host_functions_of_a_kernel_file_is_a_place_of_it(tmp_path):
    # warp op: the kernel file defines the kernel and its launch function; the launcher declares that function with
    # a prototype (no include) and calls it, and a header declares it too: both are the same op's host side.
    # Look-alike: a launcher declaring a function no scanned file defines stays its own item.
    write(tmp_path, {
        "csrc/warp_kernel.cu": ("#include <ATen/ATen.h>\n" + KERNEL
                                + "void warp_launch(at::Tensor x) {\n  scale_kernel<<<1, 32>>>(x.data_ptr<float>());\n}\n"),
        "csrc/warp_kernel.cuh": "#pragma once\n#include <ATen/ATen.h>\n\nvoid warp_launch(at::Tensor x);\n",
        "csrc/warp_cuda.cu": ("#include <ATen/ATen.h>\n\nvoid warp_launch(at::Tensor x);\n\n"
                              "int warp_forward(at::Tensor x) {\n  warp_launch(x);\n  return 0;\n}\n"),
        "csrc/other_cuda.cu": ("#include <ATen/ATen.h>\n\nvoid blur_launch(at::Tensor x);\n\n"
                               "int blur_forward(at::Tensor x) {\n  blur_launch(x);\n  return 0;\n}\n"),
        "csrc/warp.cpp": '#include "warp_kernel.cuh"\nint bind() { return 0; }\n',
    })
    got = scan(tmp_path, "TRN601")
    assert [(p, ln, msg.split("; ", 1)[1:], places) for p, ln, _c, _r, msg, _g, _o, places in got] == [
        ("csrc/other_cuda.cu", 1, [], []),
        ("csrc/warp_kernel.cu", 1,
         ["also the files that declare its host functions and define no kernel: csrc/warp_cuda.cu, "
          "csrc/warp_kernel.cuh"],
         [("csrc/warp_cuda.cu", 1, 1), ("csrc/warp_kernel.cuh", 1, 1)]),
    ]
