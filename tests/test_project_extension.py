"""Imports of modules the project itself compiles from CUDA sources (link step, TRN302 at the import)."""
from conftest import FIXTURES, scan_findings

BUILD = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources): "
SETUP = "`torch.utils.cpp_extension.CUDAExtension`"
LOAD = "`torch.utils.cpp_extension.load`"


def _extension_findings(path, *args):
    import json

    from conftest import run_cli
    proc = run_cli("scan", path, "--format", "json", "--no-cache", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["message"],
             [(o["path"], o["line"], o["column"]) for o in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"]


def test_imports_of_cuda_extensions_built_by_the_project_are_places_of_the_build_and_not_their_look_alikes():
    # One finding per extension: each import of a module the project compiles from CUDA sources is a place of
    # the build's finding (`elsewhere` in JSON, named in the message), not a finding of its own.
    # Not places: `from . import _cpu` and `import cpu_layer_norm` (extensions built from C++ only),
    # `from .helpers import pad` / `from fastops import helpers` (a CUDAExtension names fastops.helpers, but
    # the project holds fastops/helpers.py: the import is that Python module).
    assert _extension_findings(FIXTURES / "project_ext", "--no-config") == [
        ("kernels/build.py", 3, 14, BUILD + LOAD + "; imported at kernels/norm.py:7", [("kernels/norm.py", 7, 9),
                                                                                    ("kernels/norm.py", 10, 16)]),
        ("setup.py", 7, 9, BUILD + SETUP + "; imported at fastops/__init__.py:1, fastops/attn.py:1, fastops/attn.py:2",
         [("fastops/__init__.py", 1, 1), ("fastops/attn.py", 1, 1), ("fastops/attn.py", 7, 12), ("fastops/attn.py", 2, 1)]),
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


def test_builds_through_a_helper_or_a_name_table_of_the_setup_script_name_their_modules_and_sources():
    # setup.py builds through its own helper (`make_cuda_ext(name="nms_cuda", module="detlib.ops.nms", ...)` calling
    # CUDAExtension(name="%s.%s" % (module, name))); scan/setup.py picks the name from a table with a loop over a
    # literal list (`names.get(MODE)` for MODE in MODES = ["oflex"]). The imports of the built modules are places of
    # the build, and the `.cu` sources the build compiles (in the helper's call, or the table of the function
    # holding the build) are occurrences of its finding. Not places: `from . import pool_cpu` (a CppExtension built
    # by another helper), `import scan_cuda_fast` (no build names it) nor `scan_cuda_core` (a mode not built).
    import json

    from conftest import run_cli
    root = FIXTURES / "project_ext_helper"
    assert _extension_findings(root, "--no-config") == [
        ("scan/setup.py", 12, 13, BUILD + SETUP + "; imported at scan/model.py:3", [("scan/model.py", 3, 1),
                                                                                   ("scan/model.py", 8, 12)]),
        ("setup.py", 8, 12, BUILD + SETUP + "; imported at detlib/ops/nms/nms_utils.py:3",
         [("detlib/ops/nms/nms_utils.py", 3, 1), ("detlib/ops/nms/nms_utils.py", 8, 11)]),
    ]
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config")
    places = {(f["path"], f["line"]): [o["line"] for o in f.get("occurrences", ())]
              for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"}
    assert places == {("scan/setup.py", 12): [8, 9], ("setup.py", 8): [28]}


def test_a_build_class_picked_with_a_cpp_fallback_needs_cuda_only_where_its_own_sources_name_a_cu_file():
    # setup.py picks CUDAExtension when CUDA is there and CppExtension otherwise, through one helper naming its
    # module with `"{}.{}".format(module, name)`. grid_ext passes its .cu file in `sources`, which the C++ build
    # compiles as well (and cannot): its import is a place of the build. pool_ext keeps its .cu file in
    # `sources_cuda`, added only in the CUDA arm, and its C++ source implements the operator for CPU tensors
    # (`pool_cpu`): the C++ build makes a module that imports and runs without CUDA. act_ext keeps its .cu file
    # there too, but its C++ source only checks for CUDA tensors (`CHECK_CUDA`) and calls the CUDA op: the C++
    # build runs nothing, so its import, and the import of the op by a model (with a None fallback), are places.
    got = _extension_findings(FIXTURES / "project_ext_fallback", "--no-config")
    assert [(p, line, places) for p, line, _c, _m, places in got] == [
        ("setup.py", 10, [("geo/models/block.py", 4, 5), ("geo/models/block.py", 11, 16),
                          ("geo/ops/act/act.py", 1, 1), ("geo/ops/act/act.py", 5, 12),
                          ("geo/ops/grid/grid.py", 1, 1), ("geo/ops/grid/grid.py", 5, 12)]),
    ]


def test_cpu_less_sources_need_a_cuda_check_and_no_cpu_implementation():
    from trnready.project.cpu_less_sources import cpu_less, source_paths

    files = {
        "ops/act/src/act.cpp": '#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), "cuda")\nvoid f(T x) { CHECK_CUDA(x); }',
        "ops/dcn/src/dcn.cpp": '#ifdef WITH_CUDA\nf_cuda(x);\n#else\nAT_ERROR("dcn is not compiled with GPU support");\n#endif',
        "ops/nms/src/nms.cpp": 'if (x.is_cuda()) { AT_ERROR("not compiled with GPU support"); }\nreturn nms_cpu(x);',
        "ops/plain/src/plain.cpp": "torch::Tensor plain(torch::Tensor x) { return x * 2; }",
    }
    read = files.get
    assert source_paths("setup.py", "ops.act.act_ext", ["src/act.cpp"]) == [["ops/act/src/act.cpp", "src/act.cpp"]]
    assert cpu_less("setup.py", "ops.act.act_ext", ["src/act.cpp"], read)
    assert cpu_less("setup.py", "ops.dcn.dcn_ext", ["src/dcn.cpp"], read)
    assert not cpu_less("setup.py", "ops.nms.nms_ext", ["src/nms.cpp"], read)  # a CPU implementation
    assert not cpu_less("setup.py", "ops.plain.plain_ext", ["src/plain.cpp"], read)  # nothing about CUDA
    assert not cpu_less("setup.py", "ops.gone.gone_ext", ["src/gone.cpp"], read)  # not found: never guessed


def test_imports_of_pytorch_0_4_ffi_extensions_and_in_place_builds_are_places_of_their_build():
    # blind48/blind50 class: `create_extension("_ext.reorg_layer", ..., with_cuda=True)` writes a Python package of
    # that name (the loader, which imports the compiled `_reorg_layer` library): the loader's import of it, the layer
    # importing `from ._ext import reorg_layer` and a model importing that layer are places of the build. A setup
    # script run in its own folder (`utils/build.py` building `Extension("nms.gpu_nms", [... .cu])` in place) makes
    # `utils.nms.gpu_nms`, which `from .nms.gpu_nms import gpu_nms` imports. Not places: `from .nms.cpu_nms import
    # cpu_nms` (an extension built from a .pyx alone). model.py imports two kernel modules: one item, the first's.
    ffi = "cffi extension module of PyTorch 0.4 (torch.utils.ffi, removed in PyTorch 1.0; builds and loads " \
          "nvcc-compiled kernels): `torch.utils.ffi`"
    assert _extension_findings(FIXTURES / "project_ext_legacy", "--no-config") == [
        ("layers/reorg/_ext/reorg_layer/__init__.py", 2, 1, ffi, []),
        ("layers/reorg/build.py", 3, 1, ffi + "; imported at layers/reorg/_ext/reorg_layer/__init__.py:3, "
         "layers/reorg/reorg_layer.py:3, model.py:3",
         [("layers/reorg/_ext/reorg_layer/__init__.py", 3, 1), ("layers/reorg/reorg_layer.py", 3, 1),
          ("layers/reorg/reorg_layer.py", 10, 9), ("model.py", 3, 1), ("model.py", 4, 1), ("model.py", 10, 22),
          ("model.py", 17, 12)]),
        # ... and the Cython wrapper the same build compiles beside nms_kernel.cu, at its `cdef extern from` line
        # (postprocess_cython.py; cpu_nms.pyx, built alone, is a CPU extension and no place)
        ("utils/build.py", 24, 5, BUILD + "`distutils.extension.Extension`; imported at utils/nms_wrapper.py:2",
         [("utils/nms_wrapper.py", 2, 1), ("utils/nms_wrapper.py", 10, 12), ("utils/nms/gpu_nms.pyx", 6, 1)]),
    ]


def test_the_toolkit_lookup_a_build_reads_is_a_place_of_it():
    # py-faster-rcnn's build: `CUDA = locate_cuda()` (a function of the file naming nvcc, raising without it), then
    # `Extension(..., library_dirs=[CUDA["lib64"]])`. The lookup is where the build fails on a host without nvcc: an
    # occurrence of the build's finding. Look-alike: `NUMPY = numpy_include()`, read by both builds, names no nvcc.
    import json

    from conftest import run_cli
    proc = run_cli("scan", FIXTURES / "project_ext_legacy" / "utils", "--format", "json", "--no-cache", "--no-config")
    got = [(f["line"], f.get("occurrences")) for f in json.loads(proc.stdout)["findings"]
           if f["path"] == "build.py" and f["rule"] == "TRN302"]
    assert got == [(24, [{"line": 19, "column": 8, "rule": "TRN302"}])]


def test_a_globbed_cpu_build_whose_sources_give_no_operator_does_not_guard_the_cuda_build(tmp_path):
    # blind57 class (DynamicHead, maskrcnn-benchmark's setup script): the sources are collected with glob.glob from
    # folders; without CUDA the build compiles the bindings and an empty `cpu/` folder, and the header the bindings
    # include stops for CPU tensors (`AT_ERROR("Not implemented on the CPU")`). The CUDA check that picks
    # CUDAExtension then guards nothing: the build is reported, with the import and the op call as its places.
    # Look-alike (a copy given `cpu/shift_cpu.cpp`, which the header calls): a CPU build that runs stays guarded.
    import shutil

    root = FIXTURES / "project_ext_globbed"
    note = "; the build kept without CUDA compiles no operator (its C++ sources only check for CUDA tensors or " \
           "stop), so the CUDA check that picks this class guards nothing on Neuron"
    assert _extension_findings(root, "--no-config") == [
        ("setup.py", 19, 21, BUILD + SETUP + note + "; imported at detkit/layers/shift.py:3",
         [("detkit/layers/shift.py", 3, 1), ("detkit/layers/shift.py", 9, 16)]),
    ]
    cpu = tmp_path / "cpu"
    shutil.copytree(root, cpu)
    csrc = cpu / "detkit" / "csrc"
    (csrc / "cpu").mkdir()
    (csrc / "cpu" / "shift_cpu.cpp").write_text(
        "#include <torch/extension.h>\n\nat::Tensor shift_forward_cpu(const at::Tensor& x, const at::Tensor& o) {\n"
        "  return x + o;\n}\n")
    header = (csrc / "shift.h").read_text()
    (csrc / "shift.h").write_text(header.replace('AT_ERROR("Not implemented on the CPU");',
                                                 "return shift_forward_cpu(x, offset);"))
    assert _extension_findings(cpu, "--no-config") == []
    assert [(f[0], f[1], f[2], f[3], f[5]) for f in scan_findings(cpu, "--no-config", "--show-guarded")
            if f[3] == "TRN302"] == [("setup.py", 19, 21, "TRN302", True)]


def test_glob_sources_follow_the_paths_a_setup_script_builds_and_nothing_else():
    import ast

    from trnready.project.build_names import _cuda_pick_arm, _holder
    from trnready.project.source_globs import glob_sources

    def sources_of(text: str):
        tree = ast.parse(text)
        call = next(n for n in ast.walk(tree) if type(n) is ast.Call and type(n.func) is ast.Name
                    and n.func.id == "extension")
        func = _holder(tree, call)
        return glob_sources(tree, func, call, call.args[1], _cuda_pick_arm(func, "extension"))

    head = "import glob, os\nfrom torch.utils.cpp_extension import CppExtension, CUDAExtension\n" \
           "def build(cuda):\n    d = os.path.join(os.path.dirname(__file__), 'pkg', 'csrc')\n" \
           "    extension = CppExtension\n"
    tail = "    return extension('pkg._C', sources)\n"
    assert sources_of(head + "    sources = glob.glob(os.path.join(d, '*.cpp')) + ['extra/x.cpp']\n"
                      "    if cuda:\n        extension = CUDAExtension\n"
                      "        sources += glob.glob(os.path.join(d, 'cuda', '*.cu'))\n" + tail) \
        == ["pkg/csrc/*.cpp", "extra/x.cpp"]
    # a name bound in another branch depends on the run; a call the evaluator does not know is unknown
    assert sources_of(head + "    sources = ['a.cpp']\n    if os.environ.get('X'):\n        sources = ['b.cpp']\n"
                      + tail) is None
    assert sources_of(head + "    sources = find_sources(d)\n" + tail) is None
