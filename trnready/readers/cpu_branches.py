"""Shell conditionals that install the CPU build of PyTorch in one arm and a CUDA build in another.

```sh
if [ "${CU_VERSION:-}" == cpu ] ; then
    pip3 install torch --index-url https://download.pytorch.org/whl/cpu
else
    pip3 install torch --index-url https://download.pytorch.org/whl/cu128     # TRN505, guarded
fi
```

torch-neuronx runs on PyTorch's CPU build, so a script (or a CI `run:` block) that already chooses between the CPU
build and a CUDA build has the leg a Trainium host takes: the CUDA arm is the GPU variant, which a port leaves in
place, not a line to change. Findings of the rules in `[context.values] cpu-branch-rules` (TRN505) inside an arm of
an `if` / `elif` / `else` or `case` block are guarded (`cpu-wheel-branch`, listed with --show-guarded, never
counted) when that arm runs an install command and a sibling arm of the same block installs the CPU build
(`+cpu` wheels, the `download.pytorch.org/whl/cpu` index, conda's `cpuonly`). Arms that only set a variable
(`PYTORCH_DEPS=".../cu126"` beside `PYTORCH_DEPS=".../cpu"`, handed to `docker build` to make a GPU image the
project ships) stay reported: the arm is a choice of image, not an install beside a CPU one. Nested blocks count by
their innermost arm (`if nightly; then if cpu; then A; else B; fi; else ...`).

The parse is a line-and-keyword reading, not a shell grammar: commands are split at `;`, `&&`, `||` and `|`
outside quotes; a command whose first word is `if`, `elif`, `else`, `fi`, `case`, `esac` (or a `case` pattern
`cpu)`, ended by `;;`) opens or closes an arm. In a YAML CI file, a leading `- run:` / `script:` key is skipped so
the keywords of one-line commands count too. A block never closed by `fi` / `esac` (PowerShell's `if ($IsWindows) {`
in a Windows CI step) is not read.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .. import requirements as rq

GUARD = "cpu-wheel-branch"

# PyTorch's CPU wheels: `torch==2.1.0+cpu`, the CPU wheel index (also nightly/cpu); readers/ci.py reads jobs by it
CPU_WHEELS = r"(?<![\w-])torch(?:vision|audio)?==[\w.]+\+cpu\b|download\.pytorch\.org/whl/(?:[\w.-]+/)*cpu\b"
# ... and conda's `cpuonly` package: PyTorch's CPU build however it is installed
_CPU_BUILD = re.compile(r"(?i)" + CPU_WHEELS + r"|(?<![\w-])cpuonly(?![\w-])")
_INSTALL = re.compile(r"(?i)(?<![\w-])(?:pip3?|uv\s+pip|conda|mamba|micromamba)\s+(?:-\S+\s+)*install\b")
_YAML_KEY = re.compile(r"^\s*(?:-\s+)?(?:run|script|command|commands|bash|before_script|after_script)"
                       r"\s*:\s*[|>]?[-+]?\s*")
_KEYWORD = re.compile(r"(if|elif|else|fi|then|do|done|case|esac|while|until|for|select|\{|\}|!)(?![\w:.=/-])")
_PATTERN = re.compile(r"\(?\s*[^()\s;][^()]*\)")


class _Block:
    __slots__ = ("kind", "arms", "open", "expect_pattern")

    def __init__(self, kind: str):
        self.kind = kind
        self.arms: list = []  # [start, end) positions (line, column), 1-based
        self.open = None  # start of the arm being read
        self.expect_pattern = kind == "case"

    def start(self, pos) -> None:
        self.close(pos)
        self.open = pos

    def close(self, pos) -> None:
        if self.open is not None:
            self.arms.append((self.open, pos))
            self.open = None


def _segments(line: str):
    """(column, text, separator after it) of the commands of one line, split outside quotes."""
    out, start, i, quote = [], 0, 0, ""
    while i < len(line):
        c = line[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c in ";&|":
            sep = line[i:i + 2] if line[i:i + 2] in (";;", "&&", "||", ";&") else c
            out.append((start, line[start:i], sep))
            i += len(sep)
            start = i
            continue
        i += 1
    out.append((start, line[start:], ""))
    return out


def _close_through(stack: list, kind: str, pos, done: list) -> None:
    """`fi` / `esac`: close the open blocks down to and including the innermost one of that kind (a block left
    open inside it, such as an unterminated `case`, ends there too)."""
    while stack:
        b = stack.pop()
        b.close(pos)
        done.append(b)
        if b.kind == kind:
            break


def blocks(lines: list[str], yaml: bool = False) -> list[_Block]:
    """The `if` and `case` blocks of a shell text, each with the spans of its arms."""
    stack: list[_Block] = []
    done: list[_Block] = []
    for n, raw in enumerate(lines, 1):
        text = rq.strip_comment(raw)
        if yaml:
            m = _YAML_KEY.match(text)
            if m:
                text = " " * m.end() + text[m.end():]
        if not text.strip():
            continue
        for col, seg, sep in _segments(text):
            at = col + len(seg) - len(seg.lstrip())
            rest = seg.lstrip()
            while rest:
                top = stack[-1] if stack else None
                if top is not None and top.kind == "case" and top.expect_pattern and not rest.startswith("esac"):
                    m = _PATTERN.match(rest)
                    if m is None:
                        break
                    top.start((n, at + 1))
                    top.expect_pattern = False
                    at += m.end()
                    rest = rest[m.end():]
                    at += len(rest) - len(rest.lstrip())
                    rest = rest.lstrip()
                    continue
                m = _KEYWORD.match(rest)
                if m is None:
                    break
                word = m.group(1)
                pos = (n, at + 1)
                if word == "if":
                    b = _Block("if")
                    b.start(pos)
                    stack.append(b)
                elif word in ("elif", "else") and top is not None and top.kind == "if":
                    top.start(pos)
                elif word == "fi" and any(b.kind == "if" for b in stack):
                    _close_through(stack, "if", pos, done)
                elif word == "case":
                    stack.append(_Block("case"))
                    break  # `case $X in`: the rest of the command is its word
                elif word == "esac" and any(b.kind == "case" for b in stack):
                    _close_through(stack, "case", pos, done)
                at += m.end()
                rest = rest[m.end():]
                at += len(rest) - len(rest.lstrip())
                rest = rest.lstrip()
            if sep == ";;" or sep == ";&":
                top = next((b for b in reversed(stack) if b.kind == "case"), None)
                if top is not None and stack[-1] is top:
                    top.close((n, col + len(seg) + 1))
                    top.expect_pattern = True
    return done  # a block never closed (PowerShell's `if (...) {`, a truncated text) is not read


def _text(lines: list[str], span) -> str:
    (l1, c1), (l2, c2) = span
    if l1 == l2:
        return lines[l1 - 1][c1 - 1:c2 - 1] if l1 <= len(lines) else ""
    parts = [lines[l1 - 1][c1 - 1:]] + lines[l1:min(l2 - 1, len(lines))]
    if l2 <= len(lines):
        parts.append(lines[l2 - 1][:c2 - 1])
    return "\n".join(parts)


def _cpu_install(lines: list[str], arm, arms: list) -> bool:
    """Does the arm install the CPU build itself, on a line of its own level (not inside an arm of a block nested in
    it: `if nightly; then if cpu; then <cpu>; else <cuda>; fi; else <cuda>; fi` gives the stable arm no CPU leg)?"""
    (l1, _c1), (l2, _c2) = arm
    nested = [a for a, _k in arms if arm[0] < a[0] and a[1] <= arm[1]]
    for n in range(l1, min(l2, len(lines)) + 1):
        first = arm[0][1] if n == l1 else 1
        span = rq.strip_comment(_text(lines, ((n, first), min(arm[1], (n, len(lines[n - 1]) + 1)))))
        if not _INSTALL.search(span):
            continue
        for m in _CPU_BUILD.finditer(span):
            if not any(a[0] <= (n, first + m.start()) < a[1] for a in nested):
                return True
    return False


def guard_cpu_wheel_branches(findings: list, lines: list[str], values: dict, yaml: bool = False) -> list:
    """Findings of `cpu-branch-rules` in an installing arm whose sibling arm installs PyTorch's CPU build, guarded."""
    rules = frozenset(values.get("cpu-branch-rules", ()))
    if not any(f.rule in rules and not f.guarded for f in findings):
        return findings
    joined = "\n".join(lines)
    if not _CPU_BUILD.search(joined) or not re.search(r"\b(?:if|case)\b", joined):
        return findings
    found = blocks(lines, yaml)
    arms = [(a, id(b)) for b in found for a in b.arms]
    if not arms:
        return findings
    texts: dict = {}

    def text(span) -> str:
        if span not in texts:
            texts[span] = "\n".join(rq.strip_comment(x) for x in _text(lines, span).split("\n"))
        return texts[span]

    by_block = {id(b): b for b in found}
    out = []
    for f in findings:
        if f.rule in rules and not f.guarded:
            pos = (f.line, f.column)
            inside = [(a, k) for a, k in arms if a[0] <= pos < a[1]]
            if inside:
                # the innermost arm: the one starting last (arms of one block never overlap)
                arm, key = max(inside, key=lambda x: x[0][0])
                siblings = [s for s in by_block[key].arms if s != arm]
                if _INSTALL.search(text(arm)) and any(_cpu_install(lines, s, arms) for s in siblings):
                    f = replace(f, guarded=True, guarded_by=GUARD)
        out.append(f)
    return out
