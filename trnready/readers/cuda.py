"""CUDA sources (.cu / .cuh): one finding per file listing the `__global__` kernels to port, plus line matchers;
C++ sources (kind cpp): the line matchers that name that kind.

A file that only includes a project header (`#include "scan_kernel.cuh"`) and instantiates its templates
(`template void scan_fwd<float>(Params &);`, the split-for-parallel-compilation pattern) has nothing of its
own to port: the kernels are the header's finding, so it gets none.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .context import FileContext, ReadResult, Source
from .emit import Emitter, msg
from .lines import emit_lines
from ..filekinds import comments

_CUDA_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", re.S)
_MAX_KERNEL_PLACES = 100  # as postprocess.MAX_OCCURRENCES: a generated file with thousands of kernels stays small
_GLOBAL = re.compile(r"\b__global__\b")
# a kernel launch (`kernel<<<grid, block>>>(...)`, also templated: `k<T><<<...>>>`) and a CUDA registration
_LAUNCH = re.compile(r"[\w>]\s*<<<")
_CUDA_IMPL = re.compile(r"\bTORCH_LIBRARY_IMPL\s*\(\s*\w+\s*,\s*CUDA\b")
_IDENT_PAREN = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*(?:<[^<>;{}()]*>\s*)?\(")


def _blank_comments(text: str) -> str:
    """The text with comments and strings turned into spaces, newlines kept (so offsets and line numbers hold)."""
    return _CUDA_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _closing_paren(clean: str, i: int) -> int:
    """The offset of the `)` that closes the `(` at offset i (the end of the text when it is never closed)."""
    depth = 0
    while i < len(clean):
        ch = clean[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            break
        i += 1
    return i


def cuda_kernels(text: str) -> list[tuple[str, int]]:
    """Names and lines of the `__global__` functions *defined* in a CUDA source (declarations skipped). The line is
    the one holding `__global__`, where the definition starts: the name may follow lines later
    (`__global__ __launch_bounds__(...)` / `void scan_fwd_kernel(Params p) {`)."""
    return [(name, line) for name, line, _ in cuda_kernel_heads(text)]


def cuda_kernel_heads(text: str) -> list[tuple[str, int, int]]:
    """(name, line of `__global__`, line of the name) of each kernel defined in a CUDA source."""
    out, seen = [], set()
    for name, line, name_line, defined in _global_heads(text):
        if defined and (name, line) not in seen:  # overloads (float / half variants) are separate kernels to port
            seen.add((name, line))
            out.append((name, line, name_line))
    return out


def kernel_prototypes(text: str) -> list[int]:
    """Lines of the `__global__` prototypes (`__global__ void k(...);`, declared ahead of the definitions) of the
    kernels the same source defines: each names a kernel to port, and goes with its definition."""
    heads = list(_global_heads(text))
    defined = {name for name, _, _, d in heads if d}
    return [line for name, line, _, d in heads if not d and name in defined]


def _global_heads(text: str):
    """(name, line of `__global__`, line of the name, defined here) of each `__global__` declaration."""
    clean = _blank_comments(text)
    clean = re.sub(r"__launch_bounds__\s*\([^)]*\)", lambda m: " " * len(m.group(0)), clean)
    for g in _GLOBAL.finditer(clean):
        m = _IDENT_PAREN.search(clean, g.end())
        if not m:
            continue
        i = _closing_paren(clean, m.end() - 1)
        rest = clean[i + 1:].lstrip()
        yield (m.group(1), clean.count("\n", 0, g.start()) + 1, clean.count("\n", 0, m.start()) + 1,
               rest.startswith("{"))


_PREPROCESSOR = re.compile(r"(?m)^[ \t]*#.*(?:\\\n.*)*$")
_LOCAL_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*"[^"]+"')
_INSTANTIATION = re.compile(r"^(?:extern\s+)?template\s+(?!<)[^{}]*$")


def instantiation_only(text: str) -> bool:
    """Only preprocessor lines (a quoted #include among them) and explicit template instantiations."""
    clean = _CUDA_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)  # strings kept
    if not _LOCAL_INCLUDE.search(clean):
        return False
    body = _PREPROCESSOR.sub("", clean)
    statements = [st.strip() for st in body.split(";") if st.strip()]
    return bool(statements) and all(_INSTANTIATION.match(st) for st in statements)


_QUOTED_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"')


def local_includes(text: str) -> list[str]:
    """The quoted `#include "..."` targets of a CUDA source (the project's own headers; <...> ones are not)."""
    clean = _CUDA_COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
    return _QUOTED_INCLUDE.findall(clean)


_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "catch", "return", "sizeof", "defined", "else", "do",
                            "decltype", "static_assert", "alignof", "new", "delete", "throw"})
# `void deformable_im2col(const at::Tensor data_im, ...);` at the start of a statement: a return type (words, `::`,
# template arguments, `*` / `&`), the name, the parameters, `;`. A call has no type before its name.
_PROTOTYPE = re.compile(r"(?m)^[ \t]*(?:(?:extern|static|inline|template\s*<[^<>;{}]*>)\s+)*"
                        r"(?:const\s+)?[A-Za-z_][\w:]*(?:\s*<[^<>;{}()]*>)?[\s*&]+([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*;")


def declared_functions(text: str) -> set[str]:
    """Names of the host functions a CUDA source declares with a prototype (`void f(at::Tensor x);`) and does
    not define itself: functions another file defines (a launcher's kernel wrappers, a header's declarations)."""
    clean = _blank_comments(text)
    found = {m.group(1) for m in _PROTOTYPE.finditer(clean) if m.group(1) not in _NOT_FUNCTIONS}
    return found - defined_functions(text) if found else set()


def defined_functions(text: str) -> set[str]:
    """Names of the functions a CUDA source defines (`name(...) {`, kernels and host functions alike)."""
    clean = _blank_comments(text)
    out = set()
    for m in _IDENT_PAREN.finditer(clean):
        name = m.group(1)
        if name in _NOT_FUNCTIONS:
            continue
        i = _closing_paren(clean, m.end() - 1)
        rest = clean[i + 1:i + 200].lstrip()
        if rest.startswith("const"):
            rest = rest[5:].lstrip()
        if rest.startswith("{"):
            out.add(name)
    return out


def _kernel_names(kernels) -> str:
    counts: dict = {}
    for k, _ in kernels:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def scan_cuda(text: str, lines, engine, em: Emitter, kind: str):
    text_in = text
    heads = cuda_kernel_heads(text)
    kernels = [(name, line) for name, line, _ in heads]
    if not kernels and instantiation_only(text):
        return
    for rule, m in engine.surface.get("file", ()):
        if kind not in m.names:
            continue
        names = _kernel_names(kernels)
        # a whole-file finding, at the file's start (as ruff reports file-level rules); the kernels are its places
        line = 1
        if kernels:
            text = (f"{rule.title}: {len(kernels)} __global__ kernel{'s' if len(kernels) != 1 else ''} "
                   f"to port to NKI ({names})")
        else:
            text = (f"{rule.title}: no __global__ kernel defined in this file (device helpers, launchers or "
                   f"template instantiations of kernels defined elsewhere)")
        if m.message:
            text = msg(rule, m, em.rel, count=len(kernels), names=names or "none")
        snippet = lines[line - 1] if 0 < line <= len(lines) else ""
        em.add(rule, m, line, 1, len(snippet) + 1, snippet, text, f"{kind}:{names}")
        if kernels and em.out and em.out[-1].line == line and em.out[-1].rule == rule.id:
            # Every kernel is a line of work: each is folded into the file's one finding as an occurrence,
            # so a checklist or an annotation lists each `__global__` definition. A head
            # written over several lines (`__global__ __launch_bounds__(...)` / `void name(...) {`) lists its
            # name line too: one definition, read from either line.
            # The prototypes of those kernels (declared ahead of their definitions) are places of them too.
            protos = set(kernel_prototypes(text_in)) if "__global__" in text_in else set()
            # So are the lines that launch them (`k<<<blocks, threads>>>(...)`) and register the file's operators
            # for the CUDA dispatch key (`TORCH_LIBRARY_IMPL(ops, CUDA, m)`): the port replaces both.
            uses = {i for i, ln in enumerate(lines, 1) if not ln.lstrip().startswith("//")
                    and (_LAUNCH.search(ln) or _CUDA_IMPL.search(ln))}
            more = sorted(({ln for _, ln in kernels} | {nl for _, _, nl in heads} | protos | uses)
                          - {line})[:_MAX_KERNEL_PLACES]
            if more:
                em.out[-1] = replace(em.out[-1], occurrences=tuple((ln, 1, rule.id) for ln in more))


def read(ctx: FileContext) -> ReadResult:
    em = Emitter(ctx.rel)
    lines = ctx.text.splitlines()
    if ctx.kind == "cuda":  # C++ sources (kind cpp) are read by their line matchers only
        scan_cuda(ctx.text, lines, ctx.engine, em, ctx.kind)
    emit_lines(ctx.kind, lines, ctx.engine, em, ctx.text)
    return ReadResult(em.out, None, [Source(ctx.text, comments(ctx.kind))])
