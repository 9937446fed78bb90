"""Report step arch-lists (project/arch_lists.py): TORCH_CUDA_ARCH_LIST in a file that compiles nothing, in a project
with no CUDA extension of its own, is no custom kernel."""
import json

from conftest import run_cli

IMAGE = """FROM example/trainer-base:latest

ARG TORCH_CUDA_ARCH_LIST="7.0 8.0 9.0+PTX"
WORKDIR /workspace/app
COPY . .
RUN pip install -e .[flash-attn]
"""

SOURCE_BUILD = """FROM example/trainer-base:latest

ENV TORCH_CUDA_ARCH_LIST "8.0;9.0"
RUN pip3 install "git+https://example.org/fused-ops.git"
"""

SETUP = """from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(name="app", ext_modules=[CUDAExtension("app_C", ["csrc/op.cu"])], cmdclass={"build_ext": BuildExtension})
"""


def _found(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"]) for f in json.loads(proc.stdout)["findings"]
            if f["category"] == "custom-cuda-kernel"]


def test_an_arch_list_in_an_image_that_only_installs_packages_is_no_kernel_of_the_project(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(IMAGE)
    (tmp_path / "train.py").write_text("import torch\n\nprint(torch.ones(2).sum())\n")
    assert _found(tmp_path) == []


def test_an_arch_list_beside_a_source_build_in_the_same_file_stays(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(IMAGE)
    (tmp_path / "docker" / "Dockerfile.fused").write_text(SOURCE_BUILD)
    got = _found(tmp_path)
    assert ("docker/Dockerfile.fused", 3, "TRN302") in got
    assert ("docker/Dockerfile", 3, "TRN302") not in got


def test_an_arch_list_in_a_project_with_its_own_cuda_extension_stays(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(IMAGE)
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "op.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n")
    (tmp_path / "setup.py").write_text(SETUP)
    got = _found(tmp_path)
    assert ("docker/Dockerfile", 3, "TRN302") in got
    assert ("csrc/op.cu", 1, "TRN601") in got


FORCE_IMAGE = """FROM example/trainer-base:latest

RUN pip install "toolkit-full==1.4" -f https://example.org/wheels/cu118/index.html
WORKDIR /workspace/app
ENV FORCE_CUDA="1"
RUN pip install --no-cache-dir -e .
"""

SERVE_IMAGE = """FROM example/trainer-base:latest

RUN export FORCE_CUDA=1
RUN pip install "git+https://example.org/fused-ops.git"
"""


def test_force_cuda_in_an_image_that_builds_nothing_is_no_kernel_of_the_project(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(FORCE_IMAGE)
    (tmp_path / "train.py").write_text("import torch\n\nprint(torch.ones(2).sum())\n")
    assert _found(tmp_path) == []


def test_a_lone_run_export_sets_nothing_for_later_layers(tmp_path):
    # the image compiles from source, but `RUN export` ends with its own shell: the build after it never sees it
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(SERVE_IMAGE)
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "op.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n")
    (tmp_path / "setup.py").write_text(SETUP)
    got = _found(tmp_path)
    assert ("docker/Dockerfile", 3, "TRN302") not in got
    assert ("csrc/op.cu", 1, "TRN601") in got


TEMPLATE_SETUP = """from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension


def make_op(name, sources):
    return CUDAExtension(name=name, sources=sources)


setup(name="app", ext_modules=[])
"""

CI_JOB = """name: build
on: push
jobs:
  build_cuda:
    runs-on: ubuntu-22.04
    env:
      MMCV_CUDA_ARGS: -gencode=arch=compute_61,code=sm_61
    steps:
      - run: pip install -e .
"""


def test_a_setup_helper_nothing_calls_and_nvcc_flags_of_a_ci_job_build_nothing(tmp_path):
    # the template helper of setup.py is never called (uncalled-build-helper guards it), so the project builds no
    # extension: the image's arch list and the CI job's -gencode flags only sit beside prebuilt wheels
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(IMAGE)
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "build.yml").write_text(CI_JOB)
    (tmp_path / "setup.py").write_text(TEMPLATE_SETUP)
    assert _found(tmp_path) == []
    # once setup() calls it, the build is the project's and the lists steer it
    (tmp_path / "setup.py").write_text(TEMPLATE_SETUP.replace("ext_modules=[]",
                                                              'ext_modules=[make_op("app._C", ["op.cu"])]'))
    got = _found(tmp_path)
    assert ("setup.py", 6, "TRN302") in got and ("docker/Dockerfile", 3, "TRN302") in got
    assert (".github/workflows/build.yml", 7, "TRN302") in got
