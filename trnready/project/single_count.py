"""Report step single-process-count: a GPU count of 1 in a training config asks for a GPU only when the project's
code chooses the device by it.

A training config's process count (`NUM_GPUS: 8`, `num_gpu: 4`, yacs defaults `_C.NUM_GPUS = 8`) sizes a run for
the GPUs of a node: TRN610 reports it, and so it does a command-line option's default (`add_argument("--n_gpu",
type=int, default=1)`: session 52, NLP_pytorch_project's config modules in fresh76, whose `args.n_gpu` is only
compared with 1 or overwritten). A count of 1 is one process, which runs as written on a Neuron device; it
is a GPU request only where the code reads the count as "any GPU at all": a test against zero or of its truth
(`torch.device("cuda" if opt["num_gpu"] != 0 else "cpu")`, `if cfg.NUM_GPUS: model = model.cuda()`). Code that
only tells one process from several (`if cfg.NUM_GPUS > 1:`, `== 1`) or divides by the count needs no change for
a count of 1. So a finding of a rule of [context.values] single-process-count-rules whose setting is a key of
single-process-count-keys set to 1 is guarded (`--show-guarded`, guarded_by "single-process-count") when the
project's Python names the key and never tests it against zero or for truth.

Kept: counts above 1; keys no Python file of the project names (a library or a tool outside the project reads
them: BasicSR's own `num_gpu` in a project that only installs basicsr); projects with no Python.

Cheap: nothing runs unless such a finding exists; then each Python file's text is searched for the key (a
substring test first) with two regular expressions.
"""
from __future__ import annotations

import re
from dataclasses import replace

GUARD = "single-process-count"
# the setting as a `setting` matcher's message shows it (`NUM_GPUS: 1`); a launch flag (`--num_gpus 1`) is not one
_ONE = re.compile(r"`([A-Za-z_][\w.-]*)\s*:\s*1`")
# a command-line option's default (`parser.add_argument("--n_gpu", type=int, default=1)`, the option matchers of
# TRN610): the count every run without the flag takes
_OPTION = re.compile(r"asks for by default: `([A-Za-z_]\w*)`")
_DEFAULT_ONE = re.compile(r"\bdefault\s*=\s*1(?![\w.])")


def _tests(key: str) -> tuple:
    """(names the key, tests it against zero or for truth) patterns for one key (any case: yacs keys are upper)."""
    k = re.escape(key)
    ref = rf"""(?<![\w])[\w.]*(?:\.{k}|\[\s*["']{k}["']\s*\]|(?<![\w.]){k})(?![\w])"""
    # (`batch % cfg.NUM_GPUS == 0` tests a remainder, not the count: an operand of arithmetic is no test)
    operand = r"(?<![%*/+\-])(?<![%*/+\-]\s)"
    zero = (rf"(?:{operand}{ref}\s*(?:[!=]=|>|<=?|>=)\s*0(?![\d.])|(?<![\w.])0\s*(?:[!=]=|<|>=?|<=)\s*{ref}"
            rf"|\b(?:if|elif|while|and|or|not)\s+{ref}\s*(?::|\)|\band\b|\bor\b|\belse\b)"
            rf"|\bif\s+{ref}\s+else\b)")
    return re.compile(ref, re.I), re.compile(zero, re.I)


def guard_single_counts(findings: list, files: list, values: dict, read_text) -> list:
    rules = frozenset(values.get("single-process-count-rules", ()))
    keys = frozenset(k.lower() for k in values.get("single-process-count-keys", ()))
    if not rules or not keys:
        return findings
    asked: dict = {}  # index -> key
    options: dict = {}  # index -> the option's name, for a command-line option's default of 1
    for i, f in enumerate(findings):
        if f.rule not in rules or f.guarded or f.suppressed:
            continue
        m = _ONE.search(f.message or "")
        if m is None:
            o = _OPTION.search(f.message or "")
            if o is not None and o.group(1).lower() in keys and _DEFAULT_ONE.search(f.snippet or ""):
                options[i] = o.group(1).lower()
            continue
        key = m.group(1).rsplit(".", 1)[-1].lower()
        if key in keys:
            asked[i] = key
    sources = [sf for sf in files if sf.kind == "python"] if asked or options else []
    if options:
        findings = _guard_option_defaults(findings, options, sources, read_text)
    if not asked:
        return findings
    if not sources:
        return findings
    named: set = set()
    tested: set = set()
    wanted = set(asked.values())
    patterns = {k: _tests(k) for k in wanted}
    for sf in sources:
        text = read_text(sf)
        if not text:
            continue
        low = text.lower()
        for k in wanted - tested:
            if k not in low:
                continue
            ref, zero = patterns[k]
            if ref.search(text):
                named.add(k)
                if zero.search(text):
                    tested.add(k)
        if tested >= wanted:
            break
    out = list(findings)
    for i, key in asked.items():
        if key in named and key not in tested:
            out[i] = replace(out[i], guarded=True, guarded_by=GUARD)
    return out


def _guard_option_defaults(findings: list, options: dict, sources: list, read_text) -> list:
    """A command-line option's default of 1 (`add_argument("--n_gpu", type=int, default=1)`) asks for no GPU when
    the program reads `<args>.n_gpu` and never tests it against zero or for truth. The program is the folder of the
    option's module and the folders below it, widened one folder up at a time until some file there reads the
    option (`args.n_gpu`, not the `"--n_gpu"` of its definition): in a repository of several programs
    (NLP_pytorch_project's `Text_Classification/DPCNN/`) another program's `if args.n_gpu > 0:` says nothing of
    this one. An option nothing reads is kept (a library or a launcher may)."""
    texts: dict = {}

    def text(sf) -> str:
        if sf.rel not in texts:
            texts[sf.rel] = read_text(sf) or ""
        return texts[sf.rel]

    out = list(findings)
    for i, key in options.items():
        k = re.escape(key)
        read = re.compile(rf"""(?:\.{k}|\[\s*["']{k}["']\s*\]|getattr\([^,()]+,\s*["']{k}["'])(?![\w])""", re.I)
        _ref, zero = _tests(key)
        folder = out[i].path.rsplit("/", 1)[0] if "/" in out[i].path else ""
        while True:
            prefix = folder + "/" if folder else ""
            inside = [sf for sf in sources if sf.rel.startswith(prefix) and key in text(sf).lower()]
            readers = [sf for sf in inside if read.search(text(sf))]
            if readers or not folder:
                break
            folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
        if readers and not any(zero.search(text(sf)) for sf in readers):
            out[i] = replace(out[i], guarded=True, guarded_by=GUARD)
    return out
