"""Report step image-builds (project/image_builds.py): one finding per CUDA build of an image."""
import json

from conftest import run_cli

MMLAB_IMAGE = """FROM example/torch-devel:2.1

ENV TORCH_CUDA_ARCH_LIST="7.0 8.0+PTX"
WORKDIR /src
RUN git clone https://example.org/detector.git /src
ENV FORCE_CUDA="1"
RUN pip install --no-cache-dir -e .
"""

APEX_IMAGE = """FROM example/torch-devel:2.1

ENV TORCH_CUDA_ARCH_LIST="7.0 8.0+PTX"
ENV FORCE_CUDA="1"
RUN pip install -e .
RUN git clone https://github.com/NVIDIA/apex /opt/apex
WORKDIR /opt/apex
RUN pip install -v --no-cache-dir --global-option="--cpp_ext" --global-option="--cuda_ext" ./
"""

SETUP = """from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(name="app", ext_modules=[CUDAExtension("app_C", ["csrc/op.cu"])], cmdclass={"build_ext": BuildExtension})
"""


def _found(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return {(f["path"], f["line"], f["rule"]): [o["line"] for o in f.get("occurrences", [])]
            for f in json.loads(proc.stdout)["findings"] if f["category"] in ("custom-cuda-kernel", "cuda-library")}


def test_the_build_lines_of_one_image_are_one_finding_at_the_first(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(MMLAB_IMAGE)
    (tmp_path / "setup.py").write_text(SETUP)
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "op.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n")
    got = _found(tmp_path)
    assert got[("docker/Dockerfile", 3, "TRN302")] == [6]
    assert ("docker/Dockerfile", 6, "TRN302") not in got


def test_the_build_lines_of_an_image_building_apex_are_places_of_the_apex_finding(tmp_path):
    (tmp_path / "Dockerfile").write_text(APEX_IMAGE)
    (tmp_path / "train.py").write_text("import torch\n\nprint(torch.ones(2).sum())\n")
    got = _found(tmp_path)
    kernels = [k for k in got if k[2] == "TRN302"]
    assert kernels == []
    apex = [k for k in got if k[2] == "TRN504"]
    assert len(apex) == 1 and {3, 4, 8} <= set(got[apex[0]])


def test_a_project_with_its_own_extension_keeps_the_image_build_finding(tmp_path):
    (tmp_path / "Dockerfile").write_text(APEX_IMAGE)
    (tmp_path / "setup.py").write_text(SETUP)
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "op.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n")
    got = _found(tmp_path)
    assert ("Dockerfile", 3, "TRN302") in got
    assert {4, 8} <= set(got[("Dockerfile", 3, "TRN302")])
    assert [k for k in got if k[2] == "TRN504"]


def test_an_image_building_another_library_from_git_keeps_its_arch_list(tmp_path):
    text = APEX_IMAGE.replace('RUN pip install -e .\n', 'RUN pip install "git+https://example.org/fused-moe.git"\n')
    (tmp_path / "Dockerfile").write_text(text)
    (tmp_path / "train.py").write_text("import torch\n\nprint(torch.ones(2).sum())\n")
    got = _found(tmp_path)
    assert ("Dockerfile", 3, "TRN302") in got
