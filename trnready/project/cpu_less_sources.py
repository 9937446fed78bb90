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


_GLOB = re.compile(r"[*?\[]")
_CUDA_IF = re.compile(r"^\s*#\s*if(?:def\s+|\s+defined\s*\(?\s*)(?:WITH_CUDA|USE_CUDA|__CUDACC__|WITH_HIP)\b")
MAX_FILES = 32  # sources and the headers they include, read for one build


def _pattern_re(pattern: str):
    """A glob pattern over project-relative paths: `*` and `?` stay within one folder, as `glob.glob` reads them."""
    out = []
    for ch in pattern:
        out.append("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch))
    return re.compile("".join(out) + r"\Z")


def _expanded(cands: list, listing) -> list | None:
    """The project files a glob pattern matches: possibly none, when its folder is empty or missing from a folder
    the scan holds (`csrc/cpu/*.cpp` beside `csrc/vision.cpp`); None when the scan holds neither the folder nor
    the one above it (nothing is guessed)."""
    def below(folder: str) -> list:
        return [p for p in listing if not folder or p.startswith(folder + "/")]

    for c in cands:
        if not _GLOB.search(c):
            continue
        folder = posixpath.dirname(c.split("*")[0].split("?")[0].split("[")[0]).rstrip("/")
        inside = below(folder)
        if inside:
            rx = _pattern_re(c)
            return sorted(p for p in inside if rx.match(p))
        if folder and below(posixpath.dirname(folder)):
            return []
    return None


def _included(rel: str, text: str, read_text) -> list:
    """[(rel, text)] of the local headers a C++ file includes with quotes, outside its CUDA-only `#if` blocks."""
    out = []
    depth = cuda = 0
    kept = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            word = s[1:].lstrip().split(" ", 1)[0].split("(", 1)[0]
            if word.startswith("if"):
                depth += 1
                if cuda == 0 and _CUDA_IF.match(s):
                    cuda = depth
                continue
            if word in ("else", "elif") and cuda == depth:
                cuda = 0  # the arm compiled without CUDA
                continue
            if word == "endif":
                if cuda == depth:
                    cuda = 0
                depth = max(0, depth - 1)
                continue
        if cuda == 0:
            kept.append(line)
    from ..readers.cuda import local_includes

    for name in local_includes("\n".join(kept)):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), name))
        got = read_text(target)
        if got is not None:
            out.append((target, got))
    return out


def cpu_less(setup_rel: str, module: str, paths, read_text, listing=()) -> bool:
    """The C++ sources of the fallback build (all of them found, `read_text(rel) -> str or None`), with the local
    headers they include, check for or require CUDA tensors and implement nothing for CPU ones. A source may be a
    glob pattern (project/source_globs.py), matched against `listing`, the project-relative paths scanned."""
    texts: dict = {}
    for cands in source_paths(setup_rel, module, paths):
        if any(_GLOB.search(c) for c in cands):
            files = _expanded(cands, listing)
            if files is None:
                return False
            for f in files:
                text = read_text(f)
                if text is None:
                    return False
                texts[f] = text
            continue
        found = next(((c, t) for c, t in ((c, read_text(c)) for c in cands) if t is not None), None)
        if found is None:
            return False
        texts[found[0]] = found[1]
    if not texts:
        return False
    todo = list(texts.items())
    while todo and len(texts) < MAX_FILES:
        rel, text = todo.pop()
        for inc, got in _included(rel, text, read_text):
            if inc not in texts:
                texts[inc] = got
                todo.append((inc, got))
    joined = "\n".join(texts.values())
    return bool(_CUDA_ONLY.search(joined)) and not _CPU_IMPL.search(joined)


NO_FALLBACK = ("; the build kept without CUDA compiles no operator (its C++ sources only check for CUDA tensors "
               "or stop), so the CUDA check that picks this class guards nothing on Neuron")


def unguard_cpu_less_builds(findings: list, places: set) -> list:
    """A build finding that neuron-guarded guarded (`extension = CUDAExtension` under `if torch.cuda.is_available()`)
    is put back when the link step found the other arm's C++ build empty of operators (`places`: (rel, line,
    column)): on Neuron the project builds a module that runs nothing, and its imports are places of this finding."""
    from dataclasses import replace

    out = []
    for f in findings:
        if f.guarded and f.guarded_by == "neuron-guarded" and (f.path, f.line, f.column) in places:
            f = replace(f, guarded=False, guarded_by="", message=f.message + NO_FALLBACK)
        out.append(f)
    return out
