"""The one table of file kinds: which names a kind covers and how each kind is handled.

Everything that needs to know about kinds (discovery, the readers, suppression comments, the
summary groups, the catalogue's `files = [...]` check, `fix`'s editors) reads this table, so a new
kind is one new row plus its reader. Pure data: importing it costs nothing and imports nothing.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass


@dataclass(frozen=True)
class FileKind:
    kind: str
    group: str  # the summary's file groups (python, notebook, manifest, cuda, container, shell/yaml)
    reader: str  # module in trnready/readers/
    globs: tuple[str, ...]  # matched against the lower-cased file name, first row wins
    comments: tuple[str, ...] = ()  # comment syntax for `trnready: ignore[...]` ("python", "#", "//", "/*")
    editor: str | None = None  # `trnready fix` editor for the kind, when it has one
    exact: tuple[str, ...] = ()  # case-sensitive names (Pipfile)
    not_globs: tuple[str, ...] = ()  # lower-cased names excluded from the globs
    quiet_max: int | None = None  # larger files are data and are skipped without a diagnostic


HASH = ("#",)
_JSON_MAX = 256 * 1024  # AWS Batch / ECS / SageMaker job definitions are small; vocabularies are not

# Order matters: the first row whose globs match decides (conda files before other YAML, Dockerfile.sh
# before shell scripts).
KINDS: tuple[FileKind, ...] = (
    FileKind("python", "python", "python", ("*.py", "*.pyw"), ("python",), editor="python"),
    FileKind("notebook", "notebook", "notebook", ("*.ipynb",), ("cells",), editor="notebook"),
    FileKind("requirements", "manifest", "manifests",
             ("*requirements*.txt", "*requirements*.in", "constraints*.txt", "constraints*.in",
              # shorter names of the same pip file (`requirement.txt`, `req.txt`, `reqs.txt`, `req_test.txt`)
              "requirement.txt", "req.txt", "reqs.txt", "req_*.txt", "req-*.txt", "reqs_*.txt", "*_req.txt",
              "*-req.txt", "*_reqs.txt",
              # `conda list --explicit > spec-file.txt`, the name conda's documentation gives an explicit spec
              "spec-file*.txt"), HASH),
    FileKind("pyproject", "manifest", "manifests", ("pyproject.toml",), HASH),
    FileKind("setup-cfg", "manifest", "manifests", ("setup.cfg",), HASH),
    FileKind("python-version", "manifest", "manifests", (".python-version",), HASH),  # pyenv / uv
    FileKind("pipfile", "manifest", "manifests", (), HASH, exact=("Pipfile",)),
    FileKind("pixi", "manifest", "manifests", (), HASH, exact=("pixi.toml",)),  # pixi (conda-forge) environments
    # `indice.cu.h`: a header named for nvcc (spconv, mmdet3d), holding __global__ kernels as a .cuh does; so is
    # `quiver.cu.hpp` (torch-quiver's kernels and device functors, blind78)
    FileKind("cuda", "cuda", "cuda", ("*.cu", "*.cuh", "*.cu.h", "*.cu.hpp"), ("//", "/*")),
    # C++ sources and headers next to CUDA ones: line matchers that name the kind only (a CUDA library's header
    # included by a binding or a host program, `#include <cudnn_frontend.h>`); nothing else is read from them
    # (C sources too: the THC glue of a PyTorch 0.4 CUDA extension, `roi_pooling_cuda.c`, is plain C)
    FileKind("cpp", "cuda", "cuda", ("*.cpp", "*.cc", "*.cxx", "*.c", "*.hpp", "*.hh", "*.hxx", "*.h"), ("//", "/*")),
    # Native build files: line matchers that name the kind only (nvcc flags, CUDA link flags, `enable_language(CUDA)`,
    # `docker run --gpus` in a recipe); Make and CMake both use `#` comments
    FileKind("makefile", "shell/yaml", "lines", ("makefile", "gnumakefile", "*.mk", "makefile.*"), HASH,
             not_globs=("*.md", "*.rst", "*.txt", "*.py", "*.am", "*.in", "*.bat", "*.html", "*.yml", "*.yaml")),
    FileKind("cmake", "shell/yaml", "lines", ("cmakelists.txt", "*.cmake"), HASH),
    # `Dockerfile-uv-base`, `Dockerfile_gpu` are Dockerfiles too; `Dockerfile.md` / `dockerfile-lint.yml` are not
    FileKind("dockerfile", "container", "docker",
             ("dockerfile", "containerfile", "dockerfile.*", "containerfile.*", "*.dockerfile", "*.containerfile",
              "dockerfile-*", "dockerfile_*", "containerfile-*", "containerfile_*"),
             HASH, not_globs=("*.md", "*.rst", "*.txt", "*.yml", "*.yaml", "*.json", "*.toml", "*.sh", "*.ipynb",
                              "*.html", "*.lock", "*.cfg")),
    # Apptainer / Singularity definition files: `*.def` is read only when it starts with a `Bootstrap:` header
    FileKind("apptainer", "container", "apptainer", ("*.def", "singularity", "singularity.*", "apptainer"),
             HASH, not_globs=("*.md", "*.rst", "*.txt", "*.yml", "*.yaml", "*.json", "*.toml", "*.sh", "*.py",
                              "*.html", "*.lock", "*.cfg", "*.ipynb")),
    FileKind("conda", "manifest", "manifests",
             tuple(f"{stem}.{ext}" for stem in ("environment", "environment-*", "environment_*", "environment.*",
                                                "conda*") for ext in ("yml", "yaml"))
             + ("meta.yaml", "meta.yml"), HASH),  # conda-build recipes: `requirements: host/run:` specs
    FileKind("yaml", "shell/yaml", "configs", ("*.yml", "*.yaml"), HASH),  # lines, then training configs / CI
    # INI training defaults (prefigure's `defaults.ini`): read by their keys when they are a training config
    FileKind("ini", "shell/yaml", "ini_configs", ("*.ini",), HASH),
    # TOML run configs (`exp/adult/config.toml`): read by their keys when they are a training config; pyproject.toml
    # and pixi.toml matched above as manifests first
    FileKind("toml", "shell/yaml", "toml_configs", ("*.toml",), HASH),
    # Batch job scripts are shell scripts whatever the scheduler: Slurm (.sbatch / .slurm), PBS / Torque (.pbs), LSF (.lsf)
    FileKind("shell", "shell/yaml", "launch_args", ("*.sh", "*.bash", "*.sbatch", "*.slurm", "*.pbs", "*.lsf"), HASH),
    FileKind("env", "shell/yaml", "lines", (".env", ".envrc", "*.env", ".env.*"), HASH),
    FileKind("terraform", "shell/yaml", "lines", ("*.tf", "*.tfvars", "*.hcl"), ("#", "//", "/*")),  # Terraform / Packer
    # HTCondor submit description files (`request_gpus = 1`, `+request_gpus = 1`): `*.sub`, `*.submit`, `*.condor`, and
    # a file named `sub` / `submit`, as a sweep generator writes one per run (pytorch_lib's `condor/<run>/sub`)
    FileKind("condor", "shell/yaml", "lines", ("*.sub", "*.submit", "*.condor"), HASH, exact=("sub", "submit")),
    # Job definitions (AWS Batch / ECS / SageMaker / CloudFormation): line matchers only; JSONC `//` comments.
    FileKind("json", "shell/yaml", "configs", ("*.json",), ("//",),
             not_globs=("*.ipynb.json", "*package-lock.json"), quiet_max=_JSON_MAX),
)
BY_KIND: dict[str, FileKind] = {k.kind: k for k in KINDS}
KIND_NAMES: tuple[str, ...] = tuple(k.kind for k in KINDS)
GROUPS: dict[str, str] = {k.kind: k.group for k in KINDS}
GROUP_ORDER = ("python", "notebook", "manifest", "cuda", "container", "shell/yaml")
# Text files inside these folders are requirements files (`requirements/base.txt`).
REQUIREMENTS_DIRS = ("requirements", "reqs")


def kind_of(name: str) -> str | None:
    """Which kind a file is, from its name alone (None: not scanned)."""
    lower = name.lower()
    for k in KINDS:
        if name in k.exact or (any(fnmatch.fnmatchcase(lower, g) for g in k.globs)
                               and not any(fnmatch.fnmatchcase(lower, g) for g in k.not_globs)):
            return k.kind
    return None


def dir_kind(directory: str, name: str) -> str | None:
    """`requirements/base.txt`: text files inside a requirements folder are requirements files."""
    if directory.lower() in REQUIREMENTS_DIRS and name.lower().endswith((".txt", ".in")):
        return "requirements"
    return None


def kind_in(directory: str, name: str) -> str | None:
    """kind_of, then the folder rule."""
    return kind_of(name) or dir_kind(directory, name)


def comments(kind: str) -> tuple[str, ...]:
    k = BY_KIND.get(kind)
    return k.comments if k else ()
