"""C++ sources of an extension's CPU fallback build that give no operator without CUDA (link step, built imports).

A setup script often picks the build class on the build machine, `CUDAExtension` with the `.cu` files when CUDA is
there and `CppExtension` with the C++ files alone otherwise (summary `exts`, build_names.fallback_builds). Such a
fallback is a real CPU build when its C++ files implement the operators for CPU tensors (`nms_cpu(...)`); it is an
empty shell when they only check that the inputs are CUDA tensors (`CHECK_CUDA(x)`, `TORCH_CHECK(x.is_cuda(), ...)`)
or raise where the CUDA arm is compiled out (`#ifdef WITH_CUDA ... #else AT_ERROR("not compiled with GPU
support")`). Then the module, as built on a Trainium host, runs nothing: every import of it is a use of the CUDA
kernels, as for a build with CUDA sources only. Files the scan does not hold, or that cannot be found, leave the
build a CPU build (nothing is guessed).
"""
from __future__ import annotations

import posixpath
import re

# an input check that the tensor is a CUDA one, or the error of a CUDA arm compiled out
_CUDA_ONLY = re.compile(
    r"\bCHECK_CUDA\s*\(|\b(?:TORCH_CHECK|AT_ASSERTM?|TORCH_INTERNAL_ASSERT)\s*\([^;]{0,200}?\bis_cuda\s*\(\s*\)"
    r"|not\s+compiled\s+with\s+(?:GPU|CUDA)|not\s+implemented\s+(?:on|for)\s+(?:the\s+)?CPU", re.I)
# an operator implemented for CPU tensors: a call of a `*_cpu` function, or a CPU dispatch key
_CPU_IMPL = re.compile(r"\b\w+_cpu\s*\(|\bcpu_\w+\s*\(|\bkCPU\b|\bDispatchKey::CPU\b|\bis_cpu\s*\(\s*\)")


def source_paths(setup_rel: str, module: str, paths) -> list:
    """Project-relative candidates of each C++ source a build names: next to the setup script, or below the
    folder of the package the module is built into (`os.path.join(*module.split('.'), p)`)."""
    here = posixpath.dirname(setup_rel)
    package = module.split(".")[:-1]
    out = []
    for p in paths:
        p = p.lstrip("./") if p.startswith("./") else p
        cands = [posixpath.normpath(posixpath.join(here, *package, p)), posixpath.normpath(posixpath.join(here, p))]
        out.append(list(dict.fromkeys(cands)))
    return out


def cpu_less(setup_rel: str, module: str, paths, read_text) -> bool:
    """The C++ sources of the fallback build (all of them found, `read_text(rel) -> str or None`) check for or
    require CUDA tensors and implement nothing for CPU ones."""
    texts = []
    for cands in source_paths(setup_rel, module, paths):
        text = next((t for t in (read_text(c) for c in cands) if t is not None), None)
        if text is None:
            return False
        texts.append(text)
    if not texts:
        return False
    joined = "\n".join(texts)
    return bool(_CUDA_ONLY.search(joined)) and not _CPU_IMPL.search(joined)
