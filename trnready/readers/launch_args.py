"""Shell scripts: the line matchers (readers/lines.py), then the flags of launch commands read as
training-config settings.

`python train.py --deepspeed ds_z3.json --load_in_8bit --attn_implementation flash_attention_2` sets the same
training arguments a YAML config would (`deepspeed: ds_z3.json`, `load_in_8bit: true`): each `--key value`,
`--key=value` or bare `--flag` (value `true`) of a command that runs a training program is an entry for the
catalogue's `setting` matchers of role `config`. A dotted flag (`--model.compile true`, jsonargparse and
OLMo-core style) is a nested key, and so is a Hydra / OmegaConf override (`trainer.n_gpus_per_node=8`,
`actor_rollout_ref.rollout.name=vllm`, `+model.use_liger=True`: a dotted key, no dashes, `+`/`++` prefixes dropped),
so the command line is judged by the same key rules as the YAML file it overrides. Only commands that run Python
or a launcher are read (a line naming one of `LAUNCH_WORDS` or a `.py` script, with its `\\` continuation lines),
so `pip install --index-url`, `docker run --gpus` and `git clone --depth` are not training settings.
"""
from __future__ import annotations

import re
from dataclasses import replace

from . import lines as line_reader
from .configs import fold_into_first, setting_findings
from .context import FileContext, ReadResult
from .emit import Emitter
from .outline import Entry

# Commands that run a training or inference program (their flags are the program's arguments).
LAUNCH_WORDS = frozenset({"python", "python3", "torchrun", "accelerate", "deepspeed", "lightning", "composer",
                          "tune", "llamafactory-cli", "axolotl", "trl", "srun", "mpirun", "uv"})
# `--key value`, `--key=value` or a bare `--flag`; a value never starts with `-` (that is the next flag).
_FLAG = re.compile(r"(?<![\w-])--(?P<key>[A-Za-z][\w.-]*)"
                   r"(?:(?:=|[ \t]+)(?P<value>\"[^\"]*\"|'[^']*'|[^\s\\\-][^\s\\;|&]*))?")
# `a.b.c=value` after whitespace: a Hydra / OmegaConf override. The dot keeps shell assignments (`NCCL_DEBUG=INFO
# torchrun`) out; `~key` deletes a key and sets nothing.
_OVERRIDE = re.compile(r"(?:(?<=\s)|^)\+{0,2}(?P<key>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)="
                       r"(?P<value>\"[^\"]*\"|'[^']*'|[^\s\\;|&]+)")
_COMMENT = re.compile(r"(?:^|\s)#.*$")
# `key=value` after whitespace, no dot (the dotted form is _OVERRIDE's): read only after a command's program
_PLAIN_OVERRIDE = re.compile(r"(?<=\s)\+{0,2}(?P<key>[A-Za-z_][\w-]*)=(?P<value>\"[^\"]*\"|'[^']*'|[^\s\\;|&]+)")
# The program of a launch command: a `-m` module or a `.py` script written out (not after a variable or a path
# part: `$ROOT/train.py` names no script). project/launched.py reads the programs with them too.
MODULE = re.compile(r"(?<![\w-])-m[ \t]+(?P<mod>[A-Za-z_][\w.]*)")
SCRIPT = re.compile(r"(?<![\w$}/.-])(?P<path>(?:\.{0,2}/)?[\w./-]*\w\.py)(?![\w.])")
_ENDS_COMMAND = re.compile(r"[;|&]")


def _program_end(line: str) -> int | None:
    found = [m for m in (SCRIPT.search(line), MODULE.search(line)) if m is not None]
    return min(found, key=lambda m: m.start()).end() if found else None
# `dist_backend="nccl"` / `export BACKEND=nccl`: a shell variable set to a literal (no expansion, no command)
_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?(?P<name>[A-Za-z_]\w*)="
                     r"(?P<value>\"[^\"$`]*\"|'[^']*'|[^\s\"'$`;&|()]*)(?=\s*(?:$|[;#]))")
# a flag value that is one variable and nothing else: `$dist_backend`, `${dist_backend}`, `"$dist_backend"`
_VARIABLE = re.compile(r"^[\"']?\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<name>[A-Za-z_]\w*))[\"']?$")
_VERSIONED_PYTHON = re.compile(r"python3\.\d+")


def _runs_program(line: str) -> bool:
    words = [w.rsplit("/", 1)[-1] for w in line.split()[:12]]
    return any(w in LAUNCH_WORDS or w.endswith(".py") or _VERSIONED_PYTHON.fullmatch(w) for w in words)


# The program a command starts with (`deepspeed train.py`, `NCCL_DEBUG=INFO torchrun ...`, `!accelerate launch`):
# the first word of a command, after variable assignments and `sudo` / `nohup` / `exec` / `time`; not
# `pip install deepspeed`, `--deepspeed` or a path segment of a script.
_LAUNCHER = re.compile(r"(?:^|[;&|(!])\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:(?:sudo|nohup|exec|time)\s+)*"
                       r"(?:[\w./-]*/)?(?P<word>" + "|".join(sorted(LAUNCH_WORDS - {"uv"}, reverse=True))
                       + r")(?=\s|$)")


def _assignments(lines: list[str]) -> dict:
    """name -> [(line, col, end col, literal value or None)] of the script's variable assignments, in order; None
    for a value that is not a literal (`$(nproc)`, `$OTHER`), which hides any earlier literal."""
    out: dict = {}
    for i, raw in enumerate(lines, 1):
        if "=" not in raw:
            continue
        m = _ASSIGN.match(raw)
        if m is None:
            bare = re.match(r"^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=", raw)
            if bare is not None:
                out.setdefault(bare.group(1), []).append((i, 0, 0, None))
            continue
        value = m.group("value")
        if value[:1] in "\"'":
            col, end, value = m.start("value") + 2, m.end("value"), value[1:-1]
        else:
            col, end = m.start("value") + 1, m.end("value") + 1
        out.setdefault(m.group("name"), []).append((i, col, end, value if value else None))
    return out


def _resolved(value: str, line: int, assigned: dict):
    """The literal a flag value `$name` stands for, at its assignment (the last one before the flag's line):
    (value, line, col, end col), or None when the value is no lone variable or its value is not written here."""
    m = _VARIABLE.match(value)
    if m is None:
        return None
    before = [a for a in assigned.get(m.group("braced") or m.group("name"), ()) if a[0] < line]
    if not before or before[-1][3] is None:
        return None
    at, col, end, literal = before[-1]
    return literal, at, col, end


def commented_continuation(lines: list[str], k: int) -> bool:
    """Line k (0-based) of a continued command is a comment line whose command goes on below it: a command
    annotated flag by flag (`deepspeed train.py \\`, `    # the learning rate`, `    --learning_rate 5e-5 \\`).
    bash ends the command at the comment, but the flags under it are plainly written for it (run alone they are
    not a command), so they are read as the command's flags."""
    if not lines[k].lstrip().startswith("#"):
        return False
    for later in lines[k + 1:]:
        text = later.lstrip()
        if not text.startswith("#"):
            return text.startswith("-")
    return False


def launch_entries(lines: list[str], moved: dict | None = None) -> list[Entry]:
    """One Entry per flag of a launch command (key path from the flag name, value as written or `true`). A value
    that is a lone shell variable set to a literal earlier in the script (`--dist_backend $dist_backend` after
    `dist_backend="nccl"`) is that literal (`moved`, when given, gets (flag line, col) -> (assignment line, col)
    for each: the assignment is a place of the flag's finding, the line to change)."""
    out: list[Entry] = []
    assigned = _assignments(lines) if "$" in "".join(lines) else {}
    in_command = False
    command = 0
    after_program = -1  # the command whose program (a `.py` script or `-m module`) was already named
    for i, raw in enumerate(lines, 1):
        if in_command and commented_continuation(lines, i - 1):
            continue
        line = _COMMENT.sub("", raw) if "#" in raw else raw
        stripped = line.strip()
        if not in_command:
            in_command = _runs_program(stripped)
            command += in_command
            # the launcher itself is a setting (`launcher: deepspeed`): `deepspeed train.py` runs under DeepSpeed
            first = _LAUNCHER.search(line) if in_command else None
            if first is not None:
                out.append(Entry(path=("launcher",), value=first.group("word"), line=i, col=first.start("word") + 1,
                                 end_col=first.end("word") + 1, key_line=i, command=command))
        if in_command:
            for m in _FLAG.finditer(line):
                value = m.group("value")
                if value is not None and value.endswith((".py", ".sh")):
                    value = None  # `--use_deepspeed train.py`: a bare flag before the script it launches
                if value is None:
                    value, col, end = "true", m.start() + 1, m.end() + 1
                else:
                    col, end = m.start("value") + 1, m.end("value") + 1
                    got = _resolved(value, i, assigned) if "$" in value else None
                    if got is not None:
                        value, at, at_col, _ = got
                        if moved is not None:
                            moved[(i, col)] = (at, at_col)
                    value = value.strip("\"'")
                keys = tuple(k for k in m.group("key").split(".") if k)
                out.append(Entry(path=keys, value=value, line=i, col=col, end_col=end, key_line=i, command=command))
            for m in _OVERRIDE.finditer(line):
                keys = tuple(m.group("key").split("."))
                out.append(Entry(path=keys, value=m.group("value").strip("\"'"), line=i, col=m.start("value") + 1,
                                 end_col=m.end("value") + 1, key_line=i, command=command))
            # `python -m cal_ql.train ... device=cuda:0`: after the program, a `key=value` word is the program's
            # argument (a Hydra / OmegaConf override of a top-level key), never a shell assignment, which can only
            # come before the command's first word
            start = 0 if after_program == command else _program_end(line)
            if start is not None:
                after_program = command
                for m in _PLAIN_OVERRIDE.finditer(line, start):
                    if _ENDS_COMMAND.search(line, start, m.start()):
                        continue
                    out.append(Entry(path=(m.group("key"),), value=m.group("value").strip("\"'"), line=i,
                                     col=m.start("value") + 1, end_col=m.end("value") + 1, key_line=i,
                                     command=command))
        in_command = in_command and stripped.endswith("\\")
    return out


def read(ctx: FileContext) -> ReadResult:
    result = _read(line_reader.without_colon_comments(ctx))
    if result.findings and other_accelerator_script(ctx.rel, ctx.engine):
        result.findings = [f if f.guarded else replace(f, guarded=True, guarded_by="other-accelerator-code")
                           for f in result.findings]
    return result


def other_accelerator_script(rel: str, engine) -> bool:
    """A launcher whose file or directory name holds a word of [context.values] other-accelerator-words
    (`scripts/npu/train.sh`, `run_fsdp_npu.sh`, `tpu/launch.sh`): written for Ascend NPUs, TPUs, Gaudi, ROCm or
    another accelerator a Trainium host never has, it is not the launcher to port (its GPU twin is), as the Python
    code of such a module is not (predicate other-accelerator-code). A CUDA_VISIBLE_DEVICES left in it from the
    GPU script it was copied from selects nothing there either."""
    catalogue = getattr(engine, "catalogue", None)
    if catalogue is None:
        return False
    from ..context.neuron_guarded import _has_tpu_word, accelerator_words

    words = accelerator_words(catalogue.context_values)
    parts = rel.split("/")
    parts[-1] = parts[-1].rsplit(".", 1)[0]
    return any(p and _has_tpu_word(p.replace("-", "_"), words) for p in parts)


def _read(ctx: FileContext) -> ReadResult:
    result = line_reader.read(ctx)
    if not result.sources:
        return result
    result.findings = one_request_per_command(result.findings, ctx.text.splitlines(),
                                              ctx.engine.catalogue.context_values)
    if "-c" in ctx.text and ("python" in ctx.text or "PY" in ctx.text):  # `python -c '...'`: Python run by the script
        from .inline_python import inline_python_findings

        result.findings = [*result.findings, *inline_python_findings(ctx.text.splitlines(), ctx.rel, ctx.engine)]
    # settings of a config file the script writes (a DeepSpeed config in a here-document), joined to its flags'
    # findings one per rule: the script configures one run
    written = _heredoc_findings(ctx) if "<<" in ctx.text else []
    if "--" not in ctx.text and not _OVERRIDE.search(ctx.text) and not _PLAIN_OVERRIDE.search(ctx.text):
        result.findings = [*result.findings, *one_per_rule(written)]
        return result
    moved: dict = {}
    entries = launch_entries(line_reader.quiet_echo(ctx.text).splitlines(), moved)
    if not entries:
        result.findings = [*result.findings, *one_per_rule(written)]
        return result
    em = Emitter(ctx.rel)
    setting_findings(entries, "config", ctx.text.splitlines(), ctx.engine, em, ctx.rel)
    if moved:
        # a flag a line matcher already reports on its line (`--gpus-per-node $ngpu`, with the assignment as its
        # place: readers/lines.py) or at the assignment (`GPU_PER_NODE=8`, a GPU count by its name) stands; a flag
        # only the setting matchers know gets the assignment as its place
        at_line = {(f.rule, f.line) for f in result.findings}
        kept = []
        for f in em.out:
            place = moved.get((f.line, f.column))
            if place is not None:
                if (f.rule, f.line) in at_line or (f.rule, place[0]) in at_line:
                    continue
                f = replace(f, occurrences=tuple(sorted({*f.occurrences, (*place, f.rule)})))
            kept.append(f)
        em.out = kept
    summary = None
    if getattr(ctx.engine, "link", False):
        # A flag set true (`--use_amp`, `--enable_amp True`) switches on what the program's code puts under
        # `if args.use_amp:`, as a training config's `use_amp: true` does (project/config_switches.py).
        from ..project.config_keys import true_switches

        flags = [e for e in entries if e.path != ("launcher",)]
        switches = true_switches(flags, ctx.engine.catalogue.context_values)
        shown = {(e.line, e.col): "--" + ".".join(e.keys) + ("" if (e.value or "").lower() == "true" else f" {e.value}")
                 for e in flags}
        for sw in switches:  # shown as written: `--use_amp`, not `use_amp: true`
            sw[4] = shown.get((sw[0], sw[1]), sw[4])
        if switches:
            from ..project.summary import config_summary

            summary = config_summary([], switches=switches)
    return ReadResult([*result.findings, *one_per_rule(em.out + written)], result.diag, result.sources, summary)


def _heredoc_findings(ctx: FileContext) -> list:
    """The `setting` findings of the config files the script writes with a here-document
    (readers/heredoc_configs.py), one per rule and file like a config file's."""
    from .configs import role_of
    from .heredoc_configs import heredoc_entries

    lines = ctx.text.splitlines()
    em = Emitter(ctx.rel)
    for _first, entries in heredoc_entries(lines):
        role = role_of(ctx.rel, entries)
        if role == "config":
            setting_findings(entries, role, lines, ctx.engine, em, ctx.rel)
    return em.out


def one_per_rule(findings: list) -> list:
    """A script launching the same recipe several times (`--use_deepspeed` in five commands) sets one thing:
    one finding per rule, the later flags its occurrences (as one training-config file gives one)."""
    kept: dict = {}
    for f in sorted(findings, key=lambda f: (f.line, f.column)):
        if f.rule in kept:
            k = kept[f.rule]
            kept[f.rule] = replace(k, occurrences=(*k.occurrences, (f.line, f.column, f.rule)))
        else:
            kept[f.rule] = f
    return sorted(kept.values(), key=lambda f: (f.line, f.column))


_SBATCH = re.compile(r"^\s*#\s*(?:SBATCH|PBS|BSUB)\b|^\s*#\$(?=\s)")


def _command_of_lines(lines: list[str]) -> list[int]:
    """A number per line (0-based index) naming the request it belongs to: the lines of one command joined by
    `\\` continuations share one, and so does a run of consecutive scheduler directives (`#SBATCH ...`)."""
    out: list[int] = []
    cmd = 0
    prev_continues = prev_directive = False
    for text in lines:
        directive = bool(_SBATCH.match(text))
        if not (prev_continues or (directive and prev_directive)):
            cmd += 1
        out.append(cmd)
        prev_continues = text.rstrip().endswith("\\")
        prev_directive = directive
    return out


def one_request_per_command(findings: list, lines: list[str], values: dict) -> list:
    """One GPU request per command: findings of `one-per-mapping-rules` on the lines of one command (`sbatch
    --gres=gpu:a100:1 \\` then `--constraint gpu80` on its continuation line) or of one block of scheduler
    directives (`#SBATCH --gres=gpu:4` and `#SBATCH --constraint=a100`) fold into the first, whose places they join:
    the flags ask for one allocation and change together. Requests of separate commands stay apart."""
    rules = set(values.get("one-per-mapping-rules", ()))
    if not rules or sum(1 for f in findings if f.rule in rules) < 2:
        return findings
    command = _command_of_lines(lines)

    def key(f):
        if f.rule not in rules or f.guarded or f.suppressed or f.cell is not None or not 0 < f.line <= len(command):
            return None
        return f.rule, command[f.line - 1]
    return fold_into_first(findings, rules, key)
