"""Line-oriented kinds: shell scripts, Dockerfiles, YAML, .env, Terraform, JSON job definitions, Makefiles and CMake.

Line matchers read each physical line with its comment removed; `pip install` and interpreter-install
commands inside shell-like text are read as dependency declarations.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .. import requirements as rq
from .context import FileContext, ReadResult, Source
from .emit import Emitter, emit_deps, emit_pyreqs, mentioned, msg, uncommented
from .tool_commands import foreign_lines
from ..filekinds import BY_KIND, comments
from ..scope import classify

LINE_DEFAULT_KINDS = ("shell", "yaml", "dockerfile", "env")
# Kinds whose text may hold `pip install` commands.
SHELL_LIKE = ("shell", "yaml", "dockerfile", "env")
_CONDA_SHAPE = re.compile(r"(?m)^dependencies\s*:")
_CONDA_CHANNELS = re.compile(r"(?m)^(?:channels|name)\s*:")
# `echo "..."` / `printf "..."` print text (messages, hints, help); unless the output is redirected into a file
# (`echo "export CUDA_VISIBLE_DEVICES=0" >> ~/.bashrc`), what they print is not configuration.
# The arguments run to the end of the line or to a `;`, `&` or `|` outside quotes (`echo "-g|--gpus <1>"` is one
# string: its `|` is text). Each line is its own command (re.M: `$` is every line's end).
_ARGS = r"(?:\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|[^;&|>\n\"'])*"
# Output appended to a log (`| tee -a "$LIVE_LOG"`, `>> train.log`) is still only printed: a job script's
# `echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}" | tee -a "$LIVE_LOG"` sets nothing (fresh84).
_TO_LOG = r"[^\n;&|]*?(?i:log)[^\n;&|]*$"
_ECHO = re.compile(r"(?m)(?<![\w-])(?:echo|printf)\b(?P<args>" + _ARGS + r")(?=$|;|&|\|(?!\s*(?:sudo\s+)?tee\b)"
                   r"|\|\s*tee\b" + _TO_LOG + r"|>>?" + _TO_LOG + ")")


# A command group whose output goes to a file (`{` on a line of its own ... `} > "$SLURM_SCRIPT"`): its echo lines
# write that file, a job script submitted next (cf-dense-contrastive-learning's run_slurm.sh echoes `#SBATCH
# --gres=gpu:${GPU}` and `export NCCL_P2P_LEVEL=LOC` into the script it hands to sbatch, blind84).
_GROUP_OPEN = re.compile(r"^[ \t]*\{[ \t]*(?:#.*)?$")
_GROUP_CLOSE = re.compile(r"^[ \t]*\}[ \t]*(?P<out>>>?|\|[ \t]*(?:sudo[ \t]+)?tee\b)?")


def _written_groups(lines: list[str]) -> list:
    """(first, last) 0-based line indexes, the closing line excluded, of the command groups whose output is
    redirected to a file."""
    spans, stack = [], []
    for i, line in enumerate(lines):
        if _GROUP_OPEN.match(line):
            stack.append(i)
        elif stack:
            m = _GROUP_CLOSE.match(line)
            if m:
                start = stack.pop()
                if m.group("out"):
                    spans.append((start, i))
    return spans


def quiet_echo(text: str) -> str:
    """Blank the arguments of echo/printf commands that only print (same length: columns stay put)."""
    if "echo" not in text and "printf" not in text:
        return text
    kept: list = []
    if "}" in text:
        lines = text.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        kept = [(starts[a], starts[b]) for a, b in _written_groups(lines)]

    def blank(m) -> str:
        if any(a <= m.start() < b for a, b in kept):
            return m.group(0)
        return m.group(0)[: m.start("args") - m.start()] + " " * len(m.group("args"))
    return _ECHO.sub(blank, text)


# In a shell test (scope `test`), the arguments of an assertion command (`assert_eq "name" "expected" "$got"`,
# `assertEquals`, `assert_contains`) are expected values the test compares with what the script under test printed:
# a CUDA wheel URL there is a string, not an install.
_ASSERT = re.compile(r"(?m)(?<![\w-])assert\w*(?P<args>[^;&|\n]*)(?=$|;|&|\|)")


def quiet_asserts(text: str) -> str:
    """Blank the arguments of assertion commands (same length: columns stay put)."""
    if "assert" not in text:
        return text
    return _ASSERT.sub(lambda m: m.group(0)[: m.start("args") - m.start()] + " " * len(m.group("args")), text)


_SLASH_COMMENT = re.compile(r"(?:^|(?<=\s))//.*$")
# A shell variable a matched flag reads (`--gpus=${n_gpus_per_node}`, `--gres=gpu:$GPUS`), and a line that
# assigns one (`n_gpus_per_node=4`, `export GPUS=${GPUS:-8}`): the value to change is written there.
_VAR_REF = re.compile(r"\$\{?(?P<name>[A-Za-z_]\w*)")
_ASSIGN_HEAD = r"^\s*(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?(?P<name>[A-Za-z_]\w*)="
_SHELL_ASSIGN = re.compile(_ASSIGN_HEAD + r"(?!=)")
# a default set after a test: `[ -z "$CUDA_VERSION" ] && CUDA_VERSION="12.1.0"`, `test -n "$X" || X=1`
_DEFAULT_ASSIGN = re.compile(r"^\s*(?:\[\[?[^\]\n]*\]\]?|test\s[^&|\n]*?)\s*(?:&&|\|\|)\s*(?:export\s+)?"
                             r"(?P<name>[A-Za-z_]\w*)=(?!=)")


def shell_variable_lines(lines: list[str]) -> dict:
    """name -> [(line, column)] of every uncommented `NAME=value` assignment of a shell script (also a default set
    after a test: `[ -z "$X" ] && X=value`)."""
    out: dict = {}
    for n, ln in enumerate(lines, 1):
        m = _SHELL_ASSIGN.match(ln) or _DEFAULT_ASSIGN.match(ln)
        if m:
            out.setdefault(m.group("name"), []).append((n, m.start("name") + 1))
    return out


def _with_assignments(f, text: str, assigned: dict):
    """The finding of a flag that reads shell variables, with the lines assigning them as its places (the
    value is written there, and that is the line to change); unchanged when the script assigns none."""
    more = [(ln, col, f.rule) for name in dict.fromkeys(m.group("name") for m in _VAR_REF.finditer(text))
            for ln, col in assigned.get(name, ()) if ln != f.line]
    return replace(f, occurrences=tuple(sorted({*f.occurrences, *more}))) if more else f


# Batch-scheduler directives written as comments (`#SBATCH --gres=gpu:8`, `#BSUB -gpu num=4`, PBS's `#PBS -l
# select=1:ngpus=1`, Grid Engine's `#$ -l gpu=1`): read as code.
_DIRECTIVES = ("#SBATCH", "#BSUB", "#PBS", "#$ ", "#$\t")
# an echo of one quoted line, after an optional test (`[ -n "$TIME" ] && echo "#SBATCH --time=${TIME}"`)
_ECHO_LINE = re.compile(r"^(?P<pre>(?:.*?(?:&&|\|\||;)[ \t]*)?[ \t]*(?:echo|printf)[ \t]+(?P<q>[\"']))(?P<body>.*)"
                        r"(?P=q)[ \t]*$")


def _written_lines(lines: list[str]) -> set:
    """1-based numbers of the lines inside command groups whose output is redirected to a file (_written_groups)."""
    return {n + 1 for a, b in _written_groups(lines) for n in range(a, b)}


def _echoed(ln: str) -> str:
    """The line an `echo "..."` writes, in the columns it has in the script (the command before it blanked)."""
    m = _ECHO_LINE.match(ln)
    if m is None:
        return ln
    return " " * len(m.group("pre")) + m.group("body").replace('\\"', ' "').replace("\\$", " $")


def emit_lines(kind: str, lines: list[str], engine, em: Emitter, mention_text: str, cell=None,
               only: set | None = None, test: bool = False, sourced: dict | None = None):
    """Line matchers for `kind`; `only` restricts to some 1-based line numbers (notebook shell lines); `test`: a
    shell script of the test scope, whose assertion arguments are expected values; `sourced`: the literals of the
    config scripts it sources (readers/sourced_vars.py)."""
    matchers = [(r, m) for r, m in engine.lines if kind in (m.files or LINE_DEFAULT_KINDS)]
    if not matchers:
        return
    assigned = shell_variable_lines(lines) if kind == "shell" else {}
    # `trtexec ... --fp16` and the variables only such a command reads: another runtime's tool (tool_commands.py)
    foreign = foreign_lines(lines, engine.catalogue.context_values.get("other-runtime-commands", ())) \
        if kind == "shell" and getattr(engine, "catalogue", None) is not None else set()
    first = len(em.out)
    readers: list = []  # (finding, the rest of its flag's argument reading a variable)
    literals = _literal_variables(lines, assigned) if assigned and only is None else {}
    if sourced and only is None:
        literals = {**{k: v for k, v in sourced.items() if k not in assigned}, **literals}
    expanded: list = []  # (finding, assignment places) of hits only the expanded line gives
    written = _written_lines(lines) if kind == "shell" and any(ln.lstrip().startswith("}") for ln in lines) else ()
    for n, ln in enumerate(lines, 1):
        if (only is not None and n not in only) or n in foreign:
            continue
        if n in written:
            ln = _echoed(ln)  # a line of the job script the group writes (`echo "#SBATCH --gres=gpu:${GPU}"`)
        if kind == "shell" and ln.lstrip().startswith(_DIRECTIVES):  # a Slurm or LSF directive, not a comment
            tag = next(t for t in _DIRECTIVES if ln.lstrip().startswith(t))
            body = rq.strip_comment(ln.replace(tag, " " * len(tag), 1))
        elif kind in ("cuda", "cpp"):
            body = ln  # `#` starts a preprocessor line (`#include <cudnn.h>`), not a comment
        else:
            body = rq.strip_comment(ln)
        if kind in ("json", "terraform", "cuda", "cpp"):  # JSONC / HCL / C++ `//` comments
            body = _SLASH_COMMENT.sub("", body)
        elif kind in SHELL_LIKE or kind == "makefile":  # Make recipes are shell lines: `@echo "..."` only prints
            body = quiet_echo(body)
            if test and kind == "shell":
                body = quiet_asserts(body)
        if not body.strip():
            continue
        # Matched without its indentation (columns shifted back below): `^\s*-?\s*` over a long run of
        # spaces backtracks quadratically, and a pattern cannot tell indentation from nothing.
        indent = len(body) - len(body.lstrip())
        body = body[indent:]
        lit = _expanded(body, n, literals) if literals and "$" in body else None
        hit_rules: set = set()
        for rule, m in matchers:
            hit = m.regex.search(body)
            if hit is None or (m.unless_mentioned and mentioned(m, mention_text)):
                continue
            at = m.regex.groupindex.get("at")  # by number: RE2's match objects take no group names
            g = at if at is not None and hit.group(at) is not None else 0
            text = hit.group(g)  # a group named `at` marks the part to report (the rest is context)
            start = indent + hit.start(g) + len(text) - len(text.lstrip())
            added = len(em.out)
            em.add(rule, m, n, start + 1, indent + hit.end(g) + 1, ln, msg(rule, m, text.strip()), ln.strip(),
                   cell=cell)
            if lit is not None:
                hit_rules.add(rule.id)
            if assigned and len(em.out) > added:
                if "$" in text:
                    em.out[-1] = _with_assignments(em.out[-1], text, assigned)
                else:
                    # the flag's value goes on past the part matched (`--gres=gpu:${NUM_GPUS_PER_NODE}`)
                    rest = _ARG_REST.match(body, hit.end(g))
                    arg = rest.group() if rest else ""
                    if "$" in arg:
                        readers.append((em.out[-1], arg))
        if lit is not None:
            _match_expanded(lit, matchers, hit_rules, n, indent, ln, em, mention_text, cell, expanded)
    if expanded:
        em.out[first:] = _fold_expanded(em.out[first:], expanded)
    if readers:
        em.out[first:] = _fold_into_assignments(em.out[first:], readers, assigned)
    if assigned and len(em.out) > first:
        em.out[first:] = _fold_process_counts(_fold_job_counts(_fold_placed(em.out[first:]), lines), lines)


_ARG_REST = re.compile(r"[^\s\\;&|]*")

# A variable a script sets once, to a literal (`NPROC_PER_NODE=8`, `export DEVICE="cuda"`), and reads later
# (`torchrun --nproc_per_node $NPROC_PER_NODE`): the line that reads it says what it would say with the value
# written in, so a line matcher the line as written misses is tried on it with the value in place. A value
# reassigned anywhere, set from a command or another variable, or read before it is set is not put in.
_LITERAL_ASSIGN = re.compile(_ASSIGN_HEAD + r"(?P<value>\"[^\"$`\\]*\"|'[^']*'|[^\s\"'$`;&|()\\]+)\s*(?:#.*)?$")
_READ = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<name>[A-Za-z_]\w*))")


def _literal_variables(lines: list[str], assigned: dict) -> dict:
    """name -> (value, line, column) of each variable the script assigns exactly once, to a literal."""
    out: dict = {}
    for name, places in assigned.items():
        if len(places) != 1:
            continue
        ln, col = places[0]
        m = _LITERAL_ASSIGN.match(lines[ln - 1])
        if m is None or m.group("name") != name:
            continue
        value = m.group("value")
        if value[:1] in "\"'":
            value = value[1:-1]
        if value:
            out[name] = (value, ln, col)
    return out


def _expanded(body: str, n: int, literals: dict):
    """(text with the literal variables set before line n put in, original index of each character, (start, end,
    assignment place) of each value put in), or None when the line reads none of them."""
    parts: list = []
    where: list = []
    spans: list = []
    at = 0
    for m in _READ.finditer(body):
        got = literals.get(m.group("braced") or m.group("name"))
        if got is None or got[1] >= n:
            continue
        value, ln, col = got
        parts.append(body[at:m.start()])
        where.extend(range(at, m.start()))
        spans.append((len(where), len(where) + len(value), (ln, col)))
        parts.append(value)
        where.extend([m.start()] * len(value))
        at = m.end()
    if not spans:
        return None
    parts.append(body[at:])
    where.extend(range(at, len(body)))
    where.append(len(body))
    return "".join(parts), where, spans, body


def _match_expanded(lit, matchers, hit_rules: set, n: int, indent: int, ln: str, em: Emitter, mention_text: str,
                    cell, expanded: list):
    """The line matchers the line as written missed, on the line with its literal variables put in: a hit that
    takes in a value put in is reported on this line, the assignments it read as its places."""
    text, where, spans, body = lit
    for rule, m in matchers:
        if rule.id in hit_rules:
            continue
        hit = m.regex.search(text)
        if hit is None or (m.unless_mentioned and mentioned(m, mention_text)):
            continue
        places = [p for s, e, p in spans if s < hit.end() and e > hit.start()]
        if not places:
            continue
        at = m.regex.groupindex.get("at")
        g = at if at is not None and hit.group(at) is not None else 0
        start, end = where[hit.start(g)], where[hit.end(g)]
        written, value = body[start:end].strip(), hit.group(g).strip()
        shown = written if written == value or not written else f"{written} = {value}"
        added = len(em.out)
        em.add(rule, m, n, indent + start + 1, indent + max(end, start + 1) + 1, ln, msg(rule, m, shown), ln.strip(),
               cell=cell)
        if len(em.out) > added:
            expanded.append((em.out[-1], places))


def _fold_expanded(found: list, expanded: list) -> list:
    """A hit on a line with a value put in whose assignment the same rule already reports (`GPUS=8`, a GPU count
    by its name) is that finding's place; otherwise it stands, with the assignment as its place."""
    by_place = {(f.line, f.rule): i for i, f in enumerate(found)}
    drop: set = set()
    for f, places in expanded:
        i = by_place.get((f.line, f.rule))
        if i is None or found[i] is not f:
            continue
        target = next((by_place[p[0], f.rule] for p in places if (p[0], f.rule) in by_place), None)
        if target is not None:
            t = found[target]
            found[target] = replace(t, occurrences=tuple(sorted({*t.occurrences, (f.line, f.column, f.rule)})))
            drop.add(i)
        else:
            more = {(ln, col, f.rule) for ln, col in places}
            found[i] = replace(f, occurrences=tuple(sorted({*f.occurrences, *more})))
    return [f for i, f in enumerate(found) if i not in drop]


def _fold_into_assignments(found: list, readers: list, assigned: dict) -> list:
    """One finding per thing: a flag whose value reads a variable past the part its matcher names
    (`--gres=gpu:${NUM_GPUS_PER_NODE}`) whose assignment the same rule reports by itself (`NUM_GPUS_PER_NODE=8`)
    asks for what that assignment sets: the flag becomes a place of the assignment's finding, where the value to
    change is written. With no such finding the flag keeps its own, with the assignments as its places."""
    by_place = {(f.line, f.rule): i for i, f in enumerate(found)}
    drop: set = set()
    for f, arg in readers:
        targets = [by_place[ln, f.rule] for name in dict.fromkeys(m.group("name") for m in _VAR_REF.finditer(arg))
                   for ln, _col in assigned.get(name, ()) if ln != f.line and (ln, f.rule) in by_place]
        i = by_place.get((f.line, f.rule))
        if i is None or found[i] is not f:
            continue
        if targets:
            t = found[targets[0]]
            found[targets[0]] = replace(t, occurrences=tuple(sorted({*t.occurrences, (f.line, f.column, f.rule)})))
            drop.add(i)
        else:
            found[i] = _with_assignments(f, arg, assigned)
    return [f for i, f in enumerate(found) if i not in drop]


def _fold_placed(found: list) -> list:
    """One finding per thing: an assignment a rule matches by itself (`n_gpus_per_node=4`) that is already a
    place of the same rule's finding at the flag reading it (`--gpus=${n_gpus_per_node}`) is left to that one."""
    placed = {(o[0], o[2]) for f in found for o in f.occurrences}
    return [f for f in found if (f.line, f.rule) not in placed or f.occurrences]


# The GPU-pinning finding of a script (CUDA_VISIBLE_DEVICES, TRN605), the GPU-count variable finding (TRN610) and
# the process count sized for a GPU node (TRN613).
_PINNING_RULE, _COUNT_RULE, _PROCESSES_RULE = "TRN605", "TRN610", "TRN613"


def _count_variable(f, lines: list[str]) -> str:
    """The name a TRN610 finding at an assignment sets (`GPUS_PER_NODE=8`), or ""."""
    text = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
    name = text[f.column - 1: f.end_column - 1]
    if f.rule == _COUNT_RULE and re.fullmatch(r"[A-Za-z_]\w*", name) and text[f.end_column - 1:].startswith("="):
        return name
    return ""


def _reads(name: str, lines: list[str], line: int) -> list:
    """(line, text, the read matches) of the lines other than `line` that read the variable (`$NAME`, `${NAME}`, a
    bare name in shell arithmetic), comments left out."""
    ref = re.compile(r"\$\{?" + name + r"\b|\b" + name + r"\b(?!=)")
    return [(k, ln, list(ref.finditer(ln))) for k, ln in enumerate(lines, 1)
            if k != line and not ln.lstrip().startswith("#") and ref.search(ln)]


def _fold_process_counts(found: list, lines: list[str]) -> list:
    """One finding per thing: a GPU-count variable (`export GPUS_PER_NODE=8`) the script reads only as the process
    count of a launcher (`torchrun --nproc_per_node=${GPUS_PER_NODE}`, reported by TRN613) requests no GPU from a
    scheduler or runtime: it sizes the processes of one node, which is what that finding says. The assignment is a
    place of the first such finding instead of a resource request of its own (OFA's evaluation and training
    scripts, fresh60). A variable also read anywhere else (`--gres=gpu:$GPUS_PER_NODE`, shell arithmetic, an echo)
    keeps its finding."""
    procs = {f.line: f for f in found if f.rule == _PROCESSES_RULE}
    if not procs:
        return found
    into: dict = {}
    drop: set = set()
    for f in found:
        name = _count_variable(f, lines)
        if not name:
            continue
        reads = _reads(name, lines, f.line)
        # every read lies inside the part a TRN613 finding of its line reports (`--nproc_per_node=${GPUS_PER_NODE}`)
        if reads and all(k in procs and all(procs[k].column - 1 <= m.start() < procs[k].end_column - 1 for m in ms)
                         for k, _ln, ms in reads):
            target = procs[reads[0][0]]
            if all(o[0] != f.line for o in target.occurrences):  # (already its place when it reads the literal)
                into.setdefault(id(target), []).append((f.line, f.column, f.rule))
            drop.add(id(f))
    if not drop:
        return found
    return [replace(f, occurrences=tuple(sorted({*f.occurrences, *into[id(f)]}))) if id(f) in into else f
            for f in found if id(f) not in drop]


def _fold_job_counts(found: list, lines: list[str]) -> list:
    """One finding per thing: a script that pins its jobs to GPUs (`CUDA_VISIBLE_DEVICES=${VALID_GPU_IDS[GPU_ID]}
    python demo.py`) and sizes its job loop by a GPU-count variable (`TOTAL_GPUS=1`, read only in shell arithmetic,
    never by a launcher flag) does one thing: spreads jobs over GPUs by id. The count variable is a place of the
    pinning finding. A count some flag reads (`--gpus $NGPUS`, `--nproc_per_node=$GPUS`) is a request of its own."""
    pins = [f for f in found if f.rule == _PINNING_RULE]
    if not pins:
        return found
    out, more = [], []
    for f in found:
        name = _count_variable(f, lines)
        if name:
            if not any("--" in ln for _k, ln, _ms in _reads(name, lines, f.line)):
                more.append((f.line, f.column, f.rule))
                continue
        out.append(f)
    if not more:
        return found
    pin = pins[0]
    return [replace(f, occurrences=tuple(sorted({*f.occurrences, *more}))) if f is pin else f for f in out]


def _shell_commands(lines: list[str], only: set | None):
    """(command text, positions) of each logical shell line that is not a comment."""
    for text, pos in rq.logical_lines(lines):
        if only is not None and pos and pos[0][0] not in only:
            continue
        if text and not text.lstrip().startswith("#"):
            yield text, pos


def shell_deps(lines: list[str], only: set | None = None) -> list:
    out = []
    for body, pos in _shell_commands(lines, only):
        out.extend(rq.pip_deps(quiet_echo(body), pos))
    return out


def shell_pyreqs(lines: list[str], only: set | None = None, interpreters: bool = False) -> list:
    """Python versions installed by conda/uv/pyenv commands (variables resolved from ARG/ENV/export lines);
    `interpreters`: also versioned interpreters installed with apt, made the default or run (scripts, notebooks)."""
    assigns = rq.shell_assignments(lines)
    out = []
    for body, pos in _shell_commands(lines, only):
        out.extend(rq.shell_pyreqs(quiet_echo(rq.strip_comment(body)), pos, assigns, interpreters))
    return out


# an install of the directory the step is in (`pip install .`, `python setup.py install`): no package named
_HERE_BUILD = re.compile(r"(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\s+(?:-\S+\s+)*\.$"
                         r"|python3?\s+setup\.py\s+(?:\w+\s+)*install$")


def _builds_here(f) -> bool:
    """A cuda-library finding on `cd flash-attention && pip install .`: the build of what the step cloned."""
    text = (f.snippet or "")[max(f.column - 1, 0):max(f.end_column - 1, 0)].strip()
    return f.category == "cuda-library" and bool(_HERE_BUILD.search(text))


def fold_builds(found: list, steps) -> list:
    """The fold of docker.one_build_per_step and one_build_per_command: within one step (`steps()` maps each line
    to the first line of its step), the custom-cuda-kernel flags and the install of the cloned directory become
    places of the first cuda-library finding of the step."""
    lib = [f for f in found if f.category == "cuda-library"]
    kern = [f for f in found if f.category == "custom-cuda-kernel"]
    if not lib or not (kern or any(_builds_here(f) for f in lib)):
        return found
    step = steps()
    first: dict = {}
    for f in sorted(lib, key=lambda f: (f.line, f.column)):
        first.setdefault(step.get(f.line), f)
    out: list = []
    folded: dict = {}
    for f in found:
        k = first.get(step.get(f.line))
        if k is not None and k is not f and (f.category == "custom-cuda-kernel" or _builds_here(f)):
            folded.setdefault(id(k), []).append((f.line, f.column, f.rule))
            continue
        out.append(f)
    return [replace(f, occurrences=tuple(sorted({*f.occurrences, *folded[id(f)]}))) if id(f) in folded else f
            for f in out]


def command_lines(lines: list[str]) -> dict:
    """line -> first line of the shell command it belongs to (lines joined by a trailing `\\`)."""
    out: dict = {}
    start, cont = 0, False
    for n, ln in enumerate(lines, 1):
        if not cont:
            start = n
        out[n] = start
        cont = ln.rstrip().endswith("\\")
    return out


# A plain assignment alone on its line (`CUDA_PATH=/usr/local/cuda/`): not exported, not a prefix of a command.
_PLAIN_ASSIGN = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=(?:\"[^\"]*\"|'[^']*'|[^\s;&|]*)\s*(?:#.*)?$")
# What lets a plain variable reach anything but the script's own lines: export on every assignment, a sourced
# script (it runs in this shell), eval
_SHARES_VARIABLES = re.compile(r"(?m)^\s*(?:set\s+(?:-\w*a\w*\b|-o\s+allexport)|source\s|\.\s|eval\s)"
                               r"|[;&|]\s*(?:source|\.|eval)\s")


def guard_unread_assignments(found: list, lines: list[str], text: str) -> list:
    """unread-shell-variable: a finding on a plain assignment of an executed script (`#!` on line 1) that nothing
    reads (`CUDA_PATH=/usr/local/cuda/` in faster-rcnn's per-op make.sh, never exported, never `$CUDA_PATH`): a
    variable that is not exported stays in the script's shell, so nvcc or python started from it never see it, and
    the script itself never uses it. The assignment has no effect; its finding is guarded. A script that sources
    another, evals, or exports everything (`set -a`) can hand it on, and keeps its findings."""
    if not lines or not lines[0].startswith("#!") or _SHARES_VARIABLES.search(text):
        return found
    out = []
    for f in found:
        ln = lines[f.line - 1] if 0 < f.line <= len(lines) and f.cell is None else ""
        m = _PLAIN_ASSIGN.match(ln)
        if f.guarded or m is None or m.start("name") + 1 != f.column:
            out.append(f)
            continue
        name = m.group("name")
        used = re.compile(r"\$\{?" + name + r"\b|\b(?:export|declare|typeset|readonly|local)\b[^\n#]*\b" + name + r"\b")
        if any(used.search(other) for k, other in enumerate(lines, 1) if k != f.line):
            out.append(f)
        else:
            out.append(replace(f, guarded=True, guarded_by="unread-shell-variable"))
    return out


def one_per_rule_per_command(found: list, lines: list[str]) -> list:
    """One finding per thing: the lines of one command joined by a trailing `\\` (also a quoted value that runs
    over them, `CUDA_ARCH="-gencode arch=compute_30,code=sm_30 \\` and five more `-gencode` lines) are one
    statement, so a rule reports it once, at its first hit; the hits on the other lines are that finding's
    places. Hits in different commands stay apart."""
    start = command_lines(lines)
    first: dict = {}
    out: list = []
    folded: dict = {}
    for f in sorted(found, key=lambda f: (f.line, f.column)):
        if f.cell is not None:
            out.append(f)
            continue
        key = (f.rule, start.get(f.line, f.line))
        k = first.get(key)
        if k is None:
            first[key] = f
            out.append(f)
        else:
            folded.setdefault(id(k), []).extend([(f.line, f.column, f.rule), *f.occurrences])
    if not folded:
        return found
    return [replace(f, occurrences=tuple(sorted({*f.occurrences, *folded[id(f)]}))) if id(f) in folded else f
            for f in out]


def one_build_per_command(found: list, lines: list[str]) -> list:
    """One finding per thing in a shell script: a command that installs a CUDA-only package from source (`pip
    install --global-option="--cuda_ext" apex@https://github.com/NVIDIA/apex/...`) reports that package once; the
    kernel-build flags of the same command (`--cuda_ext`, `FORCE_CUDA=1 pip install ...`) are how it is built, so
    they are places of the package's finding, as in a Dockerfile RUN step. A flag in another command stays its
    own finding."""
    return fold_builds(found, lambda: command_lines(lines))


_DOCS_BUILD_FILES = frozenset({".readthedocs.yml", ".readthedocs.yaml", "readthedocs.yml", "readthedocs.yaml"})


# `: '` ... `'` (or `: <<'EOF'` ... `EOF`): the no-op command `:` handed a multi-line string, shell's block comment
# (ocnn's docker.sh keeps its usage, a `docker run --gpus=all ...` command, in one)
_COLON_QUOTE = re.compile(r"""^\s*:\s+(?P<q>['"])(?P<rest>.*)$""")
_COLON_HEREDOC = re.compile(r"""^\s*:\s*<<-?\s*(?P<q>['"]?)(?P<tag>\w+)(?P=q)\s*$""")


def colon_comments(lines: list[str]) -> list[str]:
    """The lines with the text of `:` block comments blanked (line numbers stay)."""
    out = list(lines)
    i = 0
    while i < len(out):
        m = _COLON_QUOTE.match(out[i])
        h = None if m else _COLON_HEREDOC.match(out[i])
        if m and m.group("q") not in m.group("rest"):
            end = next((j for j in range(i + 1, len(out)) if m.group("q") in out[j]), None)
        elif h:
            end = next((j for j in range(i + 1, len(out)) if out[j].strip() == h.group("tag")), None)
        else:
            i += 1
            continue
        if end is None:
            break  # unclosed: the shell would fail; read the lines as they are
        for j in range(i, end + 1):
            out[j] = ""
        i = end + 1
    return out


def without_colon_comments(ctx: FileContext) -> FileContext:
    """The shell script's context with its `:` block comments blanked (readers/launch_args.py reads through it)."""
    text = ctx.text
    if ctx.kind != "shell" or not (": '" in text or ': "' in text or ":<<" in text or ": <<" in text):
        return ctx
    lines = text.splitlines()
    blanked = colon_comments(lines)
    return ctx if blanked == lines else replace(ctx, text="\n".join(blanked))


def read(ctx: FileContext) -> ReadResult:
    kind, text = ctx.kind, ctx.text
    if kind == "yaml" and "/ISSUE_TEMPLATE/" in f"/{ctx.rel}":
        return ReadResult()  # GitHub issue forms: prose and dropdown choices, never run or deployed
    cap = BY_KIND[kind].quiet_max
    if cap is not None and len(text) > cap:
        return ReadResult()  # a data file (tokenizer, dataset, results), not a job definition
    em = Emitter(ctx.rel)
    lines = text.splitlines()
    mention = uncommented(text)
    if kind in SHELL_LIKE:
        man = rq.Manifest(deps=shell_deps(lines), pyreqs=shell_pyreqs(lines, interpreters=kind == "shell"))
        if kind == "yaml" and _CONDA_SHAPE.search(text) and _CONDA_CHANNELS.search(text):
            conda = rq.parse_conda(text)  # a conda environment under another name (env.yml, gpu.yaml)
            man.deps += conda.deps
            man.pyreqs += conda.pyreqs
        emit_deps(man.deps, lines, ctx.engine, em, mention)
        emit_pyreqs(man.pyreqs, lines, ctx.engine, em, mention, fold_same=kind == "shell")
    sourced = None
    if kind == "shell" and ("source" in text or ". " in text):
        from .sourced_vars import sourced_literals

        sourced = sourced_literals(lines, ctx.path, ctx.rel, lambda t: _literal_variables(t, shell_variable_lines(t)))
    emit_lines(kind, lines, ctx.engine, em, mention, test=kind == "shell" and classify(ctx.rel) == "test",
               sourced=sourced)
    if kind in ("shell", "makefile") and len(em.out) > 1:
        em.out = one_per_rule_per_command(em.out, lines)
    if kind == "shell" and len(em.out) > 1:
        em.out = one_build_per_command(em.out, lines)
    if kind == "shell" and em.out:
        em.out = guard_unread_assignments(em.out, lines, text)
    if kind == "shell" and em.out and getattr(ctx.engine, "catalogue", None) is not None:
        from .cpu_branches import guard_cpu_wheel_branches

        em.out = guard_cpu_wheel_branches(em.out, lines, ctx.engine.catalogue.context_values)
    if kind == "makefile" and len(em.out) > 1:
        em.out = recipes_into_build(em.out, lines)
    if kind == "yaml" and em.out and ctx.rel.rsplit("/", 1)[-1].lower() in _DOCS_BUILD_FILES:
        # Read the Docs installs these (often a CPU torch wheel to import the package for autodoc) to build the
        # documentation: not the environment the model trains or serves in (as docs/requirements.txt)
        em.out = [f if f.guarded else replace(f, guarded=True, guarded_by="docs-build") for f in em.out]
    if kind == "shell" and em.out and release_packaging(ctx.rel, mention, ctx.engine):
        em.out = [f if f.guarded else replace(f, guarded=True, guarded_by="release-packaging") for f in em.out]
    return ReadResult(em.out, None, [Source(text, comments(kind))])


def recipes_into_build(found: list, lines: list[str]) -> list:
    """A Makefile recipe running nvcc through its variable (`$(NVCC) $(OPTIONS) $^ -o $@`) is where the build its
    flags state runs: a place of the Makefile's finding of the same rule (the `-gencode` options, `NVCC_FLAGS`),
    and of the first such recipe when no flag line is reported."""
    def via_variable(f) -> bool:
        text = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        return text[f.column - 1:f.column] == "$"

    out = [f for f in found if not via_variable(f)]
    for f in sorted((f for f in found if via_variable(f)), key=lambda f: (f.line, f.column)):
        i = next((i for i, k in enumerate(out) if k.rule == f.rule), None)
        if i is None:
            out.append(f)
        else:
            k = out[i]
            out[i] = replace(k, occurrences=tuple(sorted({*k.occurrences, (f.line, f.column, f.rule)})))
    return sorted(out, key=lambda f: (f.line, f.column))


def release_packaging(rel: str, text: str, engine) -> bool:
    """A shell script in a release-packaging directory (`dev/packaging/pkg_helpers.bash`) whose code (comments
    removed) mentions building a wheel or a conda package: it builds the project's release artefacts, one arm per
    CUDA version (`cu113) export CUDA_HOME=...; export TORCH_CUDA_ARCH_LIST=...`). Nobody runs it to train or serve
    the model, and the extension it compiles is reported at its definition (setup.py, the .cu sources)."""
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    dirs = {d.lower() for d in values.get("release-packaging-dirs", ())}
    if not dirs or not any(seg.lower() in dirs for seg in rel.replace("\\", "/").split("/")[:-1]):
        return False
    low = text.lower()
    return any(w in low for w in values.get("release-packaging-words", ()))
