"""Launch and container files (docs/file-kinds.md, "Job scripts, images and pulled containers"): CUDA variables,
CUDA modules, extension builds, pulled CUDA images, CUDA package builds and the Python a distribution's apt installs.
Every class has a hit that must stay reported and a look-alike that must not be."""
from conftest import FIXTURES, scan_findings

BASE = FIXTURES / "launch_files"
IMAGE = "CUDA container base image"
EXT = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources)"


def found(path):
    return [(p, line, col, rule, message) for p, line, col, rule, message, _ in scan_findings(path, "--no-config")]


def test_launch_and_container_files_report_each_class():
    assert found(BASE / "hit") == [
        ("docker/Dockerfile", 1, 1, "TRN603", f"{IMAGE}: `FROM nvidia/cuda:12.1.0-devel-ubuntu22.04`"),
        # the distribution's python3 (Ubuntu 22.04: 3.10), at the first apt package that pulls it in
        ("docker/Dockerfile", 4, 28, "TRN522",
         "Python requirement excludes 3.12-3.14: `python3-pip (ubuntu22.04 apt: Python 3.10)`"),
        ("docker/Dockerfile", 6, 5, "TRN302", f"{EXT}: `TORCH_CUDA_ARCH_LIST`"),
        ("docker/Dockerfile", 7, 5, "TRN261", "cuDNN / CUDA backend flag: `CUBLAS_WORKSPACE_CONFIG`"),
        ("docker/Dockerfile", 10, 40, "TRN302", f"{EXT}: `--cuda_ext`"),  # on a `\` continuation line
        # a stage that chooses its Python with `python3.10 -m venv` is reported there, not at the apt package too
        ("docker/pinned-venv/Dockerfile", 3, 11, "TRN522", "Python requirement excludes 3.12-3.14: `python3.10`"),
        # deadsnakes' python3.6 on Ubuntu 16.04, which the stage then runs (RCAN's image; session 35): an explicit
        # package counts whatever the release's own python3
        ("docker/xenial-ppa/Dockerfile", 5, 5, "TRN522", "Python requirement excludes 3.12-3.14: `python3.6 (Python 3.6)`"),
        # a PBS job script is a shell script
        ("jobs/train.pbs", 3, 13, "TRN611", "CUDA toolkit loaded as an environment module, chosen by CUDA_HOME or installed on the host: `cudnn/8.9`"),
        ("jobs/train.slurm", 5, 8, "TRN261", "cuDNN / CUDA backend flag: `CUBLAS_WORKSPACE_CONFIG`"),
        ("jobs/train.slurm", 7, 20, "TRN611", "CUDA toolkit loaded as an environment module, chosen by CUDA_HOME or installed on the host: `cuda/12.1`"),
        ("jobs/train.slurm", 9, 24, "TRN603", f"{IMAGE}: `nvcr.io#nvidia/pytorch:24.05-py3`"),
        ("requirements-export.txt", 2, 1, "TRN508",
         "CUDA build of a package that falls back to the CPU: `onnxruntime-gpu>=1.17`"),
        ("requirements-export.txt", 3, 1, "TRN502",
         "CUDA-only quantization, inference or training stack declared as a dependency: `nvidia-tensorrt==8.4.1.5`"),
        ("scripts/userdata.sh", 3, 18, "TRN603", f"{IMAGE}: `nvcr.io/nvidia/pytorch:21.08-py3`"),
        ("scripts/userdata.sh", 4, 41, "TRN603", f"{IMAGE}: `nvidia/cuda:12.1.0-base-ubuntu22.04`"),
        # the container's smoke test runs NVIDIA's device query tool (neuron-ls on Trainium)
        ("scripts/userdata.sh", 4, 77, "TRN612", "nvidia-smi run by a script or a notebook cell: `nvidia-smi`"),
    ]


def test_look_alikes_of_launch_and_container_files_are_not_reported():
    # comments, echo'd text, reads and `unset` of the variables, other modules and `module unload`, a pulled
    # python image, the CPU onnxruntime, python3 from apt on Ubuntu 24.04 (3.12), a deadsnakes python3.12 on
    # 22.04 and a python:3.12 image's apt packages
    assert found(BASE / "lookalike") == []


def test_job_script_suffixes_are_shell_kind():
    from trnready.filekinds import kind_of

    assert [kind_of(n) for n in ("run.slurm", "run.sbatch", "run.pbs", "run.lsf", "run.pbs.md")] == [
        "shell", "shell", "shell", "shell", None]


def test_distro_release_of_an_image():
    from trnready.readers.distro_python import release_of

    images = ("ubuntu", "debian", "cuda")
    assert [release_of(i, images) for i in (
        "ubuntu:22.04", "debian:bookworm-slim", "debian:12", "nvcr.io/nvidia/cuda:12.1.0-devel-ubuntu22.04",
        "ubuntu", "ubuntu:latest", "python:3.10-bookworm", "pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime",
    )] == ["ubuntu22.04", "bookworm", "debian12", "ubuntu22.04", None, "latest", None, None]
