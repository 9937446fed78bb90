"""After the readers: one post-processing pipeline, the same for every file kind.

File steps run right after a file's reader, in the process that read it, and see only that file
(its findings, its text and the comment-bearing stretches the reader reported); their output is what
the result cache stores. Report steps run in the main process once every file is in, because they
depend on the configuration (per-file ignores) or on other files (repository-level rules).

    file:   suppressions (+ TRN901/TRN902) -> de-duplication -> one finding per thing -> device functions
            -> namespace imports -> self-check blocks
            -> notebook file lines -> sort
    report: per-file ignores (per file) -> repository-level rules -> CUDA helpers into their kernels -> vendored
            -> scope of each finding -> sort

A step is a plain function; adding one (more de-duplication, scope) means adding it to the tuple.
"""
from __future__ import annotations

import ast
import bisect
from dataclasses import replace
from pathlib import Path

from . import suppress
from .astwalk import of_kinds
from .masks import MASK_CALLS, MASK_VIEWS
from .config import drop_per_file_ignores
from .model import SEVERITY_RANK
from .postprocess_device_functions import device_functions
from .postprocess_namespace_imports import namespace_imports
from .postprocess_folds import apart, joins as file_joins
from .postprocess_picks import flag_checks, pick_statements
from .scope import classify

# Part of the result cache's key: raise it when a file step changes what a file's findings look like
# (2: suppressions honoured in every file kind with comments; 3: one finding per thing, occurrences;
# 4: uses fold into the same rule's import finding; self-check blocks of package modules are examples;
# 5: one finding per rule per training-config file; 6: a branch's finding folds into the reported check above
# it; 10: one per rule per function for more categories of [context.values]; 13: one per category per statement,
# per API per function, masked_select by mask; 14: one per shell assignment value, per cuda-amp API per file and
# per class, per statement in alternative arms, alias uses into the alias; 15: the end lines of occurrences;
# 16: a CUDA tensor type a conditional expression picks under a flag folds into the flag's finding; 17: a test
# folder's CUDA source without a kernel is guarded, cuda-kernel-test; 18: conda-lock pins are places of the
# declarations' findings; 19: never-imported modules of monorepo sub-projects; 21: a mask comparison written in
# the index, and an index bound to a reported data-dependent call, fold by mask; 22: a linked finding at a call
# the helper's finding lists is that finding's place; 23: numba device functions fold into their file's kernel;
# also 23: per-release requirement lists are guarded, release-snapshot; 24: session 24's four branches merged).
# 25 (s25): guarded moves folded into their check; 26: reverted (labels call them look-alikes); 27: gpu-ci-files;
# 30 (prec35a): uses of a module-level alias inside the methods of a class fold into the alias too
# 31 (s43): an import of a CUDA-only namespace is a place of the first finding resolved through it; imports of the
# `import-per-module-rules` fold per module
# 32 (s45): a view or cast of a mask (`m.expand_as(x)`, `m.bool()`) and a method comparison (`idx.ne(-1)`) fold by mask
# 33 (s46): a vendored copy the project installs and imports (project/installed_copies.py) is not guarded `vendored`
VERSION = 33


# ---------------------------------------------------------------- file steps

def suppressions(findings: list, ctx, result) -> list:
    """`trnready: ignore[...]` in each stretch of text the reader reported, with its kind's comment syntax."""
    if not result.sources or not getattr(ctx.engine, "suppressions", True):
        return findings
    for src in result.sources:
        if not src.comments or "trnready" not in src.text:
            continue
        mine = [f for f in findings if f.cell == src.cell and f.path == ctx.rel]
        others = [f for f in findings if not (f.cell == src.cell and f.path == ctx.rel)]
        findings = others + suppress.apply(mine, src.text, src.tree, ctx.rel, ctx.engine, cell=src.cell,
                                           comments=src.comments)
    return findings


def dedupe(findings: list, ctx, result) -> list:
    """Identical findings (same rule, place and message) from two readers of one file count once."""
    seen: set = set()
    out = []
    for f in findings:
        key = (f.rule, f.path, f.cell, f.line, f.column, f.end_line, f.end_column, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


# Findings about suppression comments themselves (no reason given, nothing suppressed): each is its own item.
META_RULES = frozenset({"TRN901", "TRN902"})
# File kinds that hold training configs: one finding per rule per file (outside CI workflows, whose jobs are
# separate items).
CONFIG_KINDS = frozenset({"yaml", "json"})
# A hostile line repeating one call thousands of times folds into one finding: its occurrences are capped.
MAX_OCCURRENCES = 100
# Statements of one block that may sit between two findings of one rule for the second to join the first's run.
RUN_GAP = 2


def _imports_only(snippet: str, module: str) -> bool:
    """The line is one import statement, and every name it imports is `module` or inside it (`from apex import amp`,
    `import apex.amp as amp` for "apex.amp")."""
    text = (snippet or "").strip()
    if not text.startswith(("import ", "from ")):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return False
    if len(tree.body) != 1:
        return False
    st = tree.body[0]
    if isinstance(st, ast.Import):
        names = [a.name for a in st.names]
    elif isinstance(st, ast.ImportFrom) and not st.level and st.module:
        names = [f"{st.module}.{a.name}" for a in st.names]
    else:
        return False
    return bool(names) and all(n == module or n.startswith(module + ".") for n in names)


def one_per_thing(findings: list, ctx, result) -> list:
    """One finding per thing, further places recorded in the kept finding's `occurrences`:

    - one per rule per statement (the decorators of one kernel, a call repeated inside one expression);
    - one per rule per run of neighbouring simple statements of one block (at most RUN_GAP
      statements between two of them; a def, class, loop or branch never joins a run): `a = a.cuda()`,
      `b = b.cuda()` and `c = c.cuda()` moving one batch are one edit;
    - one per rule per file for import statements (`import triton` then `import triton.language`), and
      the later uses of that rule in the file fold into the import (one finding per library per file);
    - one per rule per training-config file (YAML or JSON outside CI): `liger_rms_norm`, `liger_glu_activation`
      and `liger_fused_linear_cross_entropy` switch on one plugin, `fp16: true` in two sections is one switch;
    - one per rule and native library in a file for the rules in `one-per-library-rules` (`#include <cudnn.h>`
      and `#include <cudnn_frontend.h>`; the libraries of `native-library-families`);
    - one per rule and value in a CI file: a build matrix naming `pytorch/conda-builder:cuda118` in 40 entries
      is one item (each other image, runner or Python version stays its own);
    - one per category per line, in every file kind (`torch.nested` + `torch.jagged`, `torch==2.1.2+cu121`), and
      per statement where there is a syntax tree (`autocast(enabled=..., dtype=torch.get_autocast_gpu_dtype())`
      over two lines): the most severe, then the first by position;
    - one per rule, function and API for the rules in `one-per-function-call-rules` (six `torch.cuda.synchronize()`
      in one timing loop), except the device-picking queries of `one-per-function-call-not`;
    - one per rule and value per variable assigned in the arms of one `if` / `try` (the same `device='cuda'` for
      one tensor in a try, its except and the else around it);
    - one per boolean mask per function: `x[mask]`, then `y[mask]`, `z[~mask]` and `t.masked_select(mask[:, None])`
      fold into the first; so do two indices writing the same comparison (`a[m != 0]`, `b[m != 0]`), and
      `x[keep]` after `keep = torch.nonzero(...)` reported in the same function (the indices are that call's);
    - one per rule per function for the categories in `one-per-function-categories` (sparse: the port rewrites a
      function's sparse algebra as a whole, not each `torch.sparse.*` call), and for the rules in
      `one-per-function-rules` (a CUDA graph created, captured and replayed in one function);
    - a finding in either branch of an `if` / `elif` whose test carries a finding of the same category folds
      into that one: `if torch.cuda.is_available():` then `device = torch.device("cuda")` is one device pick;
    - the folds of postprocess_folds.py: one per rule and `NAME=value` in a shell script (`CUDA_VISIBLE_DEVICES=2`
      before each command), one per rule and API per file for `one-per-file-api-categories` (and one per class for
      their decorators: custom_fwd and custom_bwd of one autograd Function), the same statement (or the same call
      on one operand) in alternative arms, and the uses of a reported alias (`t = torch.cuda.FloatTensor`).

    The kept finding is the first by position, so its fingerprint does not change. Suppressed and
    guarded findings are folded only with findings of the same standing, and an advisory (an opt-in switch or a
    fallback lowered it) never with a change or a blocker. When a more severe import of the same rule is folded into
    a kept import (`try: import spconv.pytorch` optional, `except: import spconv` required), the item is reported at
    the most severe, the other places among its occurrences.
    Statements come from the syntax tree the Python and notebook readers report; other file kinds get the per-line
    step only.
    """
    if len(findings) < 2 or not getattr(ctx.engine, "one_per_thing", True):
        return findings
    findings = sorted(findings, key=lambda f: f.sort_key())
    statements = _statement_keys(findings, ctx, result)
    masks = _mask_keys(findings, ctx, result)
    mask_args = _mask_args(findings, ctx, result)
    values = getattr(getattr(ctx.engine, "catalogue", None), "context_values", {})
    per_function = frozenset(values.get("one-per-function-categories", ()))
    functions = _function_keys(findings, ctx, result, per_function) if per_function else {}
    # The same call of an API rule repeated in one function (six `torch.cuda.synchronize()` around the steps
    # of one timing loop, `torch.cuda.memory_stats()` at the start and end of one log): one edit of that function.
    call_rules = frozenset(values.get("one-per-function-call-rules", ()))
    not_calls = frozenset(values.get("one-per-function-call-not", ()))
    calls = _function_keys(findings, ctx, result, call_rules, by="rule") if call_rules else {}
    # Rules whose APIs in one function make one thing (a CUDA graph: `g = torch.cuda.CUDAGraph()`, its capture
    # `with torch.cuda.graph(g):`, `g.replay()`): one finding per rule per function, whatever API each line names.
    func_rules = frozenset(values.get("one-per-function-rules", ()))
    rule_functions = _function_keys(findings, ctx, result, func_rules, by="rule") if func_rules else {}
    arms = _arm_assignments(findings, ctx, result)
    # Headers and link flags of one native library in one file (`#include <cudnn.h>` then `<cudnn_frontend.h>`,
    # `<cublasLt.h>` then `<cublas_v2.h>`): one library to drop from the build, one finding per rule and library.
    library_rules = frozenset(values.get("one-per-library-rules", ()))
    per_module = frozenset(values.get("import-per-module-rules", ()))
    families = tuple(values.get("native-library-families", ())) if library_rules else ()
    joins = file_joins(findings, ctx, result, frozenset(values.get("one-per-file-api-categories", ())),
                       frozenset(values.get("one-per-class-decorator-categories", ())),
                       frozenset(values.get("library-import-categories", ())),
                       frozenset(values.get("one-per-written-value-categories", ())))
    kept: dict = {}  # key -> index into out
    out: list = []
    extra: dict = {}  # index into out -> [(line, column), ...]
    joined: dict = {}  # (stand, rule, *key of postprocess_folds) -> index into out
    own: tuple = ()  # the join keys of the finding at hand

    ends: dict = {}  # (line, column, rule) of a folded place -> its last line, when it spans several

    severest: dict = {}  # index into out -> a more severe finding folded into it (the item is reported there)

    def note_ends(f) -> None:
        if (f.end_line or f.line) > f.line:
            ends[f.line, f.column, f.rule] = f.end_line
        ends.update({(ln, c, r): end for ln, c, end in f.occurrence_end_lines
                     for ln2, c2, r in f.occurrences if (ln2, c2) == (ln, c)})

    def fold(i: int, f) -> None:
        note_ends(f)
        extra.setdefault(i, []).extend([(f.line, f.column, f.rule), *f.occurrences])
        if f.rule == out[i].rule and _imports(f) and _imports(out[i]) and \
                SEVERITY_RANK[f.severity] > SEVERITY_RANK[severest.get(i, out[i]).severity]:
            severest[i] = f
        for k in own:
            joined.setdefault(k, i)

    def carry_run(i: int, f, stand) -> None:
        # A simple statement folded into a finding elsewhere (another arm, a use of its alias) takes the run it
        # would start along: `b = y.cuda()` after `a = x.cuda()` in the `else` joins where `a` went, as `b` did
        # in the `if`, rather than starting an item of its own at another position.
        where = statements.get((f.path, f.cell, f.line))
        if where is None or where[0] == "import" or not where[2][2] or f.category in _MASK_CATEGORIES:
            return
        run, pos = (stand, f.rule, where[2][0], mask_args.get((f.path, f.cell, f.line, f.column))), where[2][1]
        if run not in runs or pos - runs[run][1] > RUN_GAP + 1:
            runs[run] = (i, pos)

    ci = classify(ctx.rel) == "ci"
    config = ctx.kind in CONFIG_KINDS and not ci
    picks = _checked_branches(findings, ctx, result)
    pick_rules = frozenset(values.get("pick-value-rules", ()))
    pick_types = frozenset(values.get("pick-value-types", ()))
    pick_lines: set | None = None  # (cell, line) of the statements a device pick is written with, when asked
    flags: dict | None = None  # (cell, line) of such a statement under `if FLAG:` -> the lines binding FLAG
    at_line: dict = {}  # (stand, category, line) -> index into out of the first finding there
    chosen: dict = {}  # (stand, rule, "arms", branch, target, message) -> (index into out, arms seen)
    runs: dict = {}  # (stand, rule, block) -> (index into out, position of the run's last statement)
    catalogue = getattr(ctx.engine, "catalogue", None)
    manifest = catalogue.manifest_rules if catalogue is not None else frozenset()
    setup_py = ctx.rel.rsplit("/", 1)[-1] == "setup.py"
    for f in findings:
        # an advisory (lowered by a predicate: an opt-in switch, a PyTorch fallback) and a blocker of one rule are
        # two things to do: never folded together (a change and a blocker are one, reported at the blocker)
        stand = (f.path, f.cell, f.suppressed, f.guarded, f.severity == "advisory")
        own, ask = (), ()
        if joins:
            own, ask = joins.keys_of(f, stand)
        # The device string of a branch under a reported check (`if torch.cuda.is_available():` then
        # `device = torch.device("cuda")`): one device pick, reported at its check. A process-group backend picked
        # with it (`backend = "nccl"`) is another category and stays its own item: the port changes it apart.
        # (Guarded and suppressed findings stay apart: --show-guarded lists each code path a check guards.)
        check = None if f.guarded or f.suppressed else next(
            (at_line[k] for lines in picks.get((f.path, f.cell, f.line), ())
             for k in ((stand, f.category, ln) for ln in lines) if k in at_line), None)
        if f.guarded and not f.suppressed and f.rule in pick_rules and f.guarded_by == "neuron-guarded":
            # The device value of a pick whose check is reported (`device_type = "cuda"` under `if
            # torch.cuda.is_available():`), guarded as its arm is: the line that writes the pick, listed at the
            # check (postprocess_picks.py). Other guarded code of the arm stays guarded.
            if pick_lines is None:
                pick_lines = pick_statements(((tree, cell) for tree, _, cell in _trees(findings, ctx, result)),
                                             pick_types)
            live = (f.path, f.cell, f.suppressed, False, f.severity == "advisory")
            if (f.cell, f.line) in pick_lines:
                check = next((at_line[k] for lines in picks.get((f.path, f.cell, f.line), ())
                              for k in ((live, f.category, ln) for ln in lines) if k in at_line), None)
                if check is None:
                    # the check written where a flag the `if` tests is bound (`is_cuda = torch.cuda.is_available()`
                    # then `if is_cuda: device = "cuda"`): the pick is listed at the binding's finding
                    if flags is None:
                        flags = flag_checks(((tree, cell) for tree, _, cell in _trees(findings, ctx, result)),
                                            pick_types)
                    check = next((at_line[k] for ln in flags.get((f.cell, f.line), ())
                                  for k in ((live, f.category, ln),) if k in at_line), None)
        if check is not None:
            fold(check, f)
            continue
        # A place far from the first of its thing in the file (postprocess_folds.py): the same `NAME=value` prefix
        # on another line of a shell script, another use of one cuda-amp API or the other decorator of one
        # autograd Function, a use of an alias whose assignment is reported.
        join = next((joined[k] for k in (*own, *ask) if k in joined), None)
        if join is not None:
            fold(join, f)
            carry_run(join, f, stand)
            continue
        # (a requirement of setup.py is a manifest line even inside a helper function's body: `cutile_deps = [...]`
        # and `cutedsl_deps = [...]` are two extras, not a run of statements)
        where = statements.get((f.path, f.cell, f.line)) if not (setup_py and f.rule in manifest) else None
        key: tuple | None = None
        # Beside its statement, a finding may belong to a larger thing: the boolean mask it indexes with, or the
        # function of a category ported a function at a time (one finding per rule per function).
        mask = masks.get((f.path, f.cell, f.line, f.column))
        # (keyed by line: a finding sharing its line with a per-function category's one folds with it too, as
        # torch.compile's mode="reduce-overhead" (TRN263) does with the compile call of the same line)
        func = functions.get((f.path, f.cell, f.line)) if f.rule not in per_module else None
        if func is None and f.rule in func_rules:
            func = rule_functions.get((f.path, f.cell, f.line))
        call = calls.get((f.path, f.cell, f.line)) if f.rule in call_rules else None
        if call is not None and (f.guarded or _called_name(f.message) in not_calls):
            call = None  # (guarded findings are listed on request only, each with the guard that holds there)
        thing = (stand, f.rule, "function", func) if func is not None else \
            (stand, f.rule, "mask", mask) if mask is not None else \
            (stand, f.rule, "call", call, f.message) if call is not None else None
        # One variable given the same value in the alternative arms of one branch (`has_data = torch.tensor([1],
        # device='cuda')` in a try, `[0]` in its except, `torch.empty(1, device='cuda')` in the else of the `if`
        # around it): one choice to change. Another variable, or another branch, stays its own item.
        # (Two assignments in one arm are two statements of one path, each its own item.)
        # Likewise the same statement, or the same call of one API on one operand, in alternative arms of the
        # branches of one block (`assert torch.cuda.device_count() > rank` in each arm of a dispatch on a value):
        # one edit, whichever arm runs. Another statement, or the same one twice in one arm, stays apart.
        choices: list = []
        if thing is None and f.category not in _MASK_CATEGORIES:
            arm = arms.get((f.path, f.cell, f.line))
            if arm is not None:
                branch, target, which = arm
                choices.append(((stand, f.rule, "arms", branch, target, f.message), which))
            # (not guarded findings: --show-guarded lists each code path a check guards)
            for branch, text, which, guard in (joins.same_in_arms(f) if joins and not f.guarded else ()):
                choices.append(((stand, f.rule, "same", branch, text, f.message, guard), which))
        hit = next(((c, w) for c, w in choices if c in chosen and (
            all(apart(c[3][0], w, seen) for seen in chosen[c][1]) if c[2] == "same" else w not in chosen[c][1])),
            None)
        if hit is not None:
            chosen[hit[0]][1].add(hit[1])
            fold(chosen[hit[0]][0], f)
            carry_run(chosen[hit[0]][0], f, stand)
            continue
        new_choices = [(c, w) for c, w in choices if c not in chosen]
        if thing in kept:
            fold(kept[thing], f)
            continue
        if where is None and config and f.rule not in META_RULES:
            key = (stand, f.rule, "config")
        elif where is None and f.rule in library_rules and library_family(_called_name(f.message), families):
            key = (stand, f.rule, "library", library_family(_called_name(f.message), families))
        elif where is None and ci and f.rule not in META_RULES:
            # A CI file naming one thing again and again (a generated build matrix pinning the same CUDA
            # image in 40 entries): one item per rule and value; other values and other rules stay apart.
            key = (stand, f.rule, "ci", f.message)
        run = None
        if where is not None:
            kind, sid, (block, pos, simple) = where
            key = ((stand, f.rule, "import", f.message) if f.rule in per_module else (stand, f.rule, "import")) \
                if kind == "import" else (stand, f.rule, sid)
            # A use of a library whose import this file already reported under the same rule (`import
            # torch_xla.core.xla_model as xm` then `xm.mark_step()`): the library is one thing to port.
            if kind != "import" and (stand, f.rule, "import") in kept:
                key = (stand, f.rule, "import")
            elif simple and f.category not in _MASK_CATEGORIES and f.rule not in per_module:
                # A def, class, loop or branch is a thing of its own, however close the next one; so is each
                # data-dependent shape (boolean masks fold by mask above; two masks are two things). Attention
                # calls run together only when they pass the same masks: a decoder's self-attention with the
                # target's padding mask, then its cross-attention with the memory's, are two masks to remove.
                run = (stand, f.rule, block, mask_args.get((f.path, f.cell, f.line, f.column)))
        if key is not None and key in kept:
            fold(kept[key], f)
            continue
        # A run of one rule over neighbouring statements of one block (`x = x.cuda()`, `y = y.cuda()`, a third
        # move two statements later; `cudnn.deterministic = True` then `cudnn.benchmark = False`) is one edit to
        # make: the later statements fold into the first.
        if run is not None and run in runs and pos - runs[run][1] <= RUN_GAP + 1:
            fold(runs[run][0], f)
            runs[run] = (runs[run][0], pos)
            continue
        if run is not None:
            runs[run] = (len(out), pos)
        if key is not None:
            kept[key] = len(out)
        if thing is not None:
            kept[thing] = len(out)
        for c, w in new_choices:
            chosen[c] = (len(out), {w})
        for k in own:
            joined.setdefault(k, len(out))
        at_line.setdefault((stand, f.category, f.line), len(out))
        out.append(f)
    # Never two findings of one category on one line, in any file kind: `torch==2.1.2+cu121` is one thing to
    # change (a CUDA build and an old pin are both environment findings); a requirement that is both a kernel
    # library and a CUDA wheel index names two categories and stays two findings.
    # Likewise one of a category per statement: `with torch.cuda.amp.autocast(enabled=True,` over two lines with
    # `dtype=torch.get_autocast_gpu_dtype())` is one call to change, whichever rules name its parts.
    by_line: dict = {}
    place_of: dict = {}  # index -> (path, cell, standing, statement or line)
    for i, f in enumerate(out):
        if f.rule in META_RULES:
            continue
        # A requirement in setup.py is a line of a manifest, whatever call holds it: `setup(python_requires=...,
        # extras_require=...)` declares several things, each its own item.
        where = statements.get((f.path, f.cell, f.line)) if f.rule not in manifest else None
        place = ("stmt", where[1]) if where is not None else ("line", f.line)
        place_of[i] = (f.path, f.cell, f.suppressed, f.guarded, place)
        by_line.setdefault((f.path, f.cell, f.suppressed, f.guarded, f.category, place), []).append(i)
    drop: set = set()

    def absorb(keeper: int, i: int) -> None:
        drop.add(i)
        fold(keeper, out[i])
        for ln_col in extra.pop(i, ()):
            extra.setdefault(keeper, []).append(ln_col)
        top = severest.pop(i, None)
        if top is not None and top.rule == out[keeper].rule and \
                SEVERITY_RANK[top.severity] > SEVERITY_RANK[severest.get(keeper, out[keeper]).severity]:
            severest[keeper] = top

    for group in by_line.values():
        if len(group) < 2:
            continue
        best = max(group, key=lambda i: (SEVERITY_RANK[out[i].severity], -out[i].line, -out[i].column))
        for i in group:
            if i != best:
                absorb(best, i)
    # A rule whose fix also makes another rule's change on the same statement takes that finding in as a place of
    # its own (`[context.values] fix-covers`, "TRN323>TRN241": `target.cuda(async=True)` is one edit,
    # `.to("neuron", non_blocking=True)`, whichever rule names which part).
    covers = [tuple(str(c).split(">", 1)) for c in values.get("fix-covers", ()) if ">" in str(c)]
    if covers:
        at: dict = {}
        for i, key in place_of.items():
            if i not in drop:
                at.setdefault(key, []).append(i)
        for group in at.values():
            for keep_rule, fold_rule in covers:
                keeper = next((i for i in group if out[i].rule == keep_rule and i not in drop), None)
                if keeper is None:
                    continue
                for i in group:
                    if out[i].rule == fold_rule and i not in drop:
                        absorb(keeper, i)
    # An import whose every name is a module another rule's findings in the file already cover (`[context.values]
    # covered-imports`, "apex.amp>TRN256": `from apex import amp` beside `amp.initialize(...)` and
    # `amp.scale_loss(...)`) is a place of that rule's first finding: replacing those calls drops the import
    # (fresh50 second.pytorch, fresh51 mellotron). An import naming anything else (`from apex import amp,
    # optimizers`) stays its own item.
    for spec in values.get("covered-imports", ()):
        module, _, rule = str(spec).partition(">")
        keepers = [i for i, f in enumerate(out) if f.rule == rule and i not in drop]
        if not module or not keepers:
            continue
        for i, f in enumerate(out):
            if i in drop or f.rule == rule or not _imports_only(f.snippet, module):
                continue
            keeper = next((k for k in keepers if out[k].guarded == f.guarded and out[k].suppressed == f.suppressed
                           and out[k].cell == f.cell), None)
            if keeper is not None:
                absorb(keeper, i)
    # A device pick reported on a flag (`cuda_available = torch.cuda.is_available()` then `device = "cuda" if
    # cuda_available else "cpu"`): one pick, written over two statements. The check where the flag is bound is a
    # place of the pick's finding, as it is when written inline in the expression (one line, one finding); the
    # pick's line is where the edit goes, unless the check already lists other picks of the flag (then the pick
    # joins them there). (A pick value in the arm of `if flag:` under a reported check is guarded, and listed at
    # the check above.)
    live_picks = [i for i, f in enumerate(out) if i not in drop and f.rule in pick_rules and not f.guarded
                  and not f.suppressed]
    if live_picks:
        if flags is None:
            flags = flag_checks(((tree, cell) for tree, _, cell in _trees(findings, ctx, result)), pick_types)
        by_place: dict = {}
        for i, f in enumerate(out):
            if i not in drop:
                by_place.setdefault((f.path, f.cell, f.suppressed, f.guarded, f.category, f.line), []).append(i)
        for i in live_picks:
            f = out[i]
            for ln in flags.get((f.cell, f.line), ()):
                for j in by_place.get((f.path, f.cell, f.suppressed, f.guarded, f.category, ln), ()):
                    if j == i or j in drop or i in drop or _called_name(out[j].message) not in not_calls:
                        continue  # (only a device-picking query binds a flag: `a = torch.device("cuda")` is a pick)
                    if extra.get(j) or out[j].occurrences:
                        absorb(j, i)  # the check already lists other picks of the flag: this one joins them
                    else:
                        absorb(i, j)
    # A command-line default handed on to a finding of its rule (`--ngpus default=8`, then
    # `gpus_per_node=args.ngpus`): one request, reported where it is made (postprocess_option_flow.py).
    flow_rules = frozenset(values.get("option-flow-rules", ()))
    flow = [i for i, f in enumerate(out) if i not in drop and f.rule in flow_rules]
    if len(flow) >= 2:
        _fold_option_flow(out, flow, drop, absorb, _trees(findings, ctx, result))
    # `os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu_id` with `add_argument("--gpu_id", default="1")`: the device
    # list enters at the option's default, which is where a reader changes it (postprocess_option_flow.py)
    entry_rules = frozenset(values.get("option-default-places", ()))
    entry = [i for i, f in enumerate(out) if i not in drop and f.rule in entry_rules]
    if entry:
        _option_default_places(out, entry, extra, _trees(findings, ctx, result))
    final = []
    for i, f in enumerate(out):
        if i in drop:
            continue
        if i in severest:
            # `try: import spconv.pytorch as spconv` (optional: a change) / `except: import spconv` (a blocker): one
            # library to replace, reported where it blocks, the first place among the others
            top = severest[i]
            extra[i] = [p for p in extra.get(i, []) if p != (top.line, top.column, top.rule)] + \
                [(f.line, f.column, f.rule), *f.occurrences]
            note_ends(f)
            f = top
        if i in extra:
            more = sorted(set(extra[i]) | set(f.occurrences))
            more = [p for p in more if p != (f.line, f.column, f.rule)][:MAX_OCCURRENCES]
            spans = dict.fromkeys((*f.occurrence_end_lines, *((ln, c, ends[ln, c, r]) for ln, c, r in more
                                                               if (ln, c, r) in ends)))
            f = replace(f, occurrences=tuple(more), occurrence_end_lines=tuple(spans))
        final.append(f)
    return final


def _fold_option_flow(out: list, flow: list, drop: set, absorb, trees) -> None:
    """Each option default of `flow` (indices into out) whose option a statement holding another finding of its
    rule and standing reads: absorbed by that finding (the first such by position)."""
    from .postprocess_option_flow import option_dests, readers_of, statement_reads, statements_at

    for tree, _mine, cell in trees:
        here = [i for i in flow if out[i].cell == cell and i not in drop]
        if len(here) < 2:
            continue
        dests = option_dests(tree)
        defaults = [i for i in here if out[i].line in dests]
        if not defaults:
            continue
        names = readers_of(tree, {dests[out[i].line] for i in defaults})
        stmts = statements_at(tree, {out[i].line for i in here})
        for j in defaults:
            d = out[j]
            dest = dests[d.line]
            reads = names.get(dest, set())
            standing = (d.suppressed, d.guarded)
            keeper = next((i for i in here if i != j and i not in drop and out[i].line not in dests
                           and out[i].rule == d.rule and (out[i].suppressed, out[i].guarded) == standing
                           and out[i].line in stmts and statement_reads(stmts[out[i].line], dest, reads)), None)
            if keeper is not None:
                absorb(keeper, j)


def _imports(f) -> bool:
    """The finding's line is an import statement (`import spconv`, `from apex import amp`)."""
    return (f.snippet or "").lstrip().startswith(("import ", "from "))


def _option_default_places(out: list, entry: list, extra: dict, trees) -> None:
    """Each finding of `entry` (indices into out) whose statement reads a command-line option of its file given a
    literal default (`args.gpu_id`, or a name bound once from it) takes the default as a place of its own."""
    from .postprocess_option_flow import literal_defaults, readers_of, statement_reads, statements_at

    for tree, _mine, cell in trees:
        here = [i for i in entry if out[i].cell == cell]
        if not here:
            continue
        defaults = literal_defaults(tree)
        if not defaults:
            continue
        names = readers_of(tree, set(defaults))
        stmts = statements_at(tree, {out[i].line for i in here})
        for i in here:
            st = stmts.get(out[i].line)
            if st is None:
                continue
            for dest, places in defaults.items():
                if statement_reads(st, dest, names.get(dest, set())):
                    extra.setdefault(i, []).extend((ln, col, out[i].rule) for ln, col in places)


def _trees(findings: list, ctx, result):
    """(syntax tree, the findings of that tree) for each tree the reader reported (a notebook has one per cell)."""
    for src in result.sources or ():
        tree = getattr(src, "tree", None)
        if isinstance(tree, ast.AST):
            yield tree, [f for f in findings if f.path == ctx.rel and f.cell == src.cell], src.cell


def _checked_branches(findings: list, ctx, result) -> dict:
    """(path, cell, line) -> the test lines of the `if` / `elif` statements whose body or else-branch holds the
    line and whose test carries a finding, innermost first. Only statements holding findings are walked."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        lines = sorted({f.line for f in mine})
        if len(lines) < 2:
            continue
        stack = [tree]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    lo = bisect.bisect_left(lines, child.lineno)
                    hi = bisect.bisect_right(lines, getattr(child, "end_lineno", None) or child.lineno)
                    if hi == lo:
                        continue
                    if isinstance(child, ast.If):
                        test = range(child.test.lineno, (child.test.end_lineno or child.test.lineno) + 1)
                        if any(ln in test for ln in lines[lo:hi]):
                            for block in (child.body, child.orelse):
                                if not block:
                                    continue
                                first, last = block[0].lineno, block[-1].end_lineno or block[-1].lineno
                                for ln in lines[bisect.bisect_left(lines, first):bisect.bisect_right(lines, last)]:
                                    out.setdefault((ctx.rel, cell, ln), []).insert(0, tuple(test))
                    stack.append(child)
                elif not isinstance(child, ast.expr):
                    stack.append(child)
    return out


_MASK_CATEGORIES = frozenset({"dynamic-shapes"})
_MASK_ARG_CATEGORIES = frozenset({"attention-mask"})  # calls whose runs are keyed by the masks they pass
_CALL = frozenset((ast.Call,))


def _mask_args(findings: list, ctx, result) -> dict:
    """(path, cell, line, column) -> the masks an attention call passes (its keywords naming a mask and its
    positional arguments after query, key and value, as dumped syntax), for the findings of _MASK_ARG_CATEGORIES.
    Only files holding such a finding are walked."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        want = {(f.line, f.column) for f in mine if f.category in _MASK_ARG_CATEGORIES}
        if len(want) < 2:
            continue
        # Calls sharing a start (`f(a)(b)`) hold one another: any walk meets the outer first, the inner one is kept
        for node in of_kinds(tree, _CALL):
            if (node.lineno, node.col_offset + 1) in want:
                out[(ctx.rel, cell, node.lineno, node.col_offset + 1)] = (
                    tuple(ast.dump(a) for a in node.args[3:]),
                    tuple((k.arg, ast.dump(k.value)) for k in node.keywords if k.arg and "mask" in k.arg))
    return out


def _plain_operand(node) -> bool:
    """A name, attribute or constant (`-1` too): an operand whose value one comparison text names."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, (ast.Name, ast.Attribute, ast.Constant))


def _mask_operand(node):
    """The mask of `x[mask]` / `x[~mask, 0]` / `x[self.mask]` as text, or None for other indices. A comparison of
    plain operands written in the index (`x[lengths > 0]`, `y[attention_mask != 0]`) is a mask too: the same
    text in one function selects the same places, one mask to replace."""
    sl = node.slice
    parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
    if all(isinstance(e, (ast.Constant, ast.Slice)) for e in parts):
        bounds = sorted({n.id for e in parts if isinstance(e, ast.Slice) for b in (e.lower, e.upper) if b is not None
                         for n in ast.walk(b) if isinstance(n, ast.Name)})
        # `h[:batch_size_t]`, `ids[idx[i] + 1:idx[i + 1]]`: slices bounded by the same data-dependent sizes are one
        # thing to change (the sizes), as the uses of one mask are
        return "[:" + ",".join(bounds) + "]" if bounds else None
    if isinstance(sl, ast.Tuple):
        sl = next((e for e in sl.elts if not isinstance(e, (ast.Constant, ast.Slice))), None)
    if isinstance(sl, ast.UnaryOp) and isinstance(sl.op, (ast.Invert, ast.Not)):
        sl = sl.operand
    # a view or a cast of a mask selects the same places (`outs[masks.expand_as(outs)]` after `hits[masks]`,
    # `self.points[self.keep.bool()]` after `self.feats[self.keep.bool()]`: NSVF, fresh64)
    while isinstance(sl, ast.Call) and isinstance(sl.func, ast.Attribute) and sl.func.attr in _MASK_VIEWS:
        sl = sl.func.value
    if isinstance(sl, (ast.Name, ast.Attribute)):
        return ast.unparse(sl)
    if isinstance(sl, ast.Compare) and len(sl.ops) == 1 and _plain_operand(sl.left) \
            and _plain_operand(sl.comparators[0]) and not isinstance(sl.left, ast.Constant):
        return ast.unparse(sl)
    # the same comparison written as a method (`sampled_idx.ne(-1)` in two indices of one function)
    if isinstance(sl, ast.Call) and isinstance(sl.func, ast.Attribute) and sl.func.attr in MASK_CALLS \
            and len(sl.args) == 1 and not sl.keywords and _plain_operand(sl.func.value) \
            and _plain_operand(sl.args[0]) and not isinstance(sl.func.value, ast.Constant):
        return ast.unparse(sl)
    return None


# methods returning the same mask viewed, broadcast or cast (not `long()` / `nonzero()`: those make indices)
_MASK_VIEWS = MASK_VIEWS | {"bool", "byte", "to", "view_as", "reshape_as"}


def _assigned_index(child, want: set) -> tuple:
    """(name, [(line, column), ...]) when `child` assigns one name a value holding findings of `want`
    (`keep = torch.nonzero(scores > t).squeeze(1)`): the index it binds is the data-dependent thing already
    reported there, and a later `x[keep]` in the function indexes with it (one finding per thing)."""
    if not (isinstance(child, ast.Assign) and len(child.targets) == 1 and isinstance(child.targets[0], ast.Name)):
        return "", []
    lo, hi = child.value.lineno, child.value.end_lineno or child.value.lineno
    return child.targets[0].id, [(ln, c) for ln, c in want if lo <= ln <= hi]


def _arm_assignments(findings: list, ctx, result) -> dict:
    """(path, cell, line) -> (outermost branch, assigned target, arm) for the lines of single-target assignments in an
    arm of an `if` / `try` (body, else, except handlers), when the file has two findings of one rule. Branches
    nested in an arm share the outer branch; a loop, `with`, def or class (and a `finally`) starts afresh."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        rules = [f.rule for f in mine]
        if len(rules) == len(set(rules)):
            continue
        lines = {f.line for f in mine}
        stack: list = [(getattr(tree, "body", []), None)]
        while stack:
            body, root = stack.pop()
            arm = id(body)
            for st in body:
                if isinstance(st, ast.If) or type(st).__name__ in ("Try", "TryStar"):
                    here = root or (st.lineno, st.col_offset)
                    stack += [(b, here) for b in (st.body, st.orelse, *(h.body for h in getattr(st, "handlers", ())))]
                    stack.append((getattr(st, "finalbody", []), None))
                elif hasattr(st, "body") or isinstance(st, ast.Match):
                    stack += [(b, None) for b in (getattr(st, "body", []), getattr(st, "orelse", []))]
                    stack += [(c.body, None) for c in getattr(st, "cases", ())]
                elif root is not None and isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                        isinstance(st.targets[0], (ast.Name, ast.Attribute)):
                    held = [ln for ln in range(st.lineno, (st.end_lineno or st.lineno) + 1) if ln in lines]
                    if held:
                        target = ast.unparse(st.targets[0])
                        for ln in held:
                            out[(ctx.rel, cell, ln)] = (root, target, arm)
    return out


def _masked_select_mask(node):
    """The mask of `x.masked_select(mask)` / `torch.masked_select(x, mask)` as text, or None. A view of the mask
    (`mask[:, None]`, `mask.unsqueeze(-1)`) selects with the same mask: `out.masked_select(mask[:, None])` then
    `target.masked_select(mask[:, None])` is one masked rewrite."""
    fn = node.func
    if not isinstance(fn, ast.Attribute) or fn.attr != "masked_select":
        return None
    args = node.args
    arg = args[0] if len(args) == 1 else args[1] if len(args) == 2 and isinstance(fn.value, ast.Name) else None
    while isinstance(arg, (ast.Subscript, ast.Call)):
        if isinstance(arg, ast.Subscript):
            arg = arg.value
        elif isinstance(arg.func, ast.Attribute):
            arg = arg.func.value
        else:
            return None
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, (ast.Invert, ast.Not)):
        arg = arg.operand
    return ast.unparse(arg) if isinstance(arg, (ast.Name, ast.Attribute)) else None


def library_family(name: str, families) -> str:
    """The native library a header or link flag names (`cudnn_frontend.h` -> cudnn, `-lcublasLt` -> cublas,
    `CUDA::cublas_static` -> cublas, `nvtx3/nvToolsExt.h` -> nvtoolsext): the first of `families`
    ([context.values] native-library-families) the bare name starts with, or ""."""
    bare = name.lower().rsplit("/", 1)[-1].split(".", 1)[0]
    bare = bare[2:] if bare.startswith("-l") else bare.split("::", 1)[-1]
    return next((f for f in families if bare.startswith(f)), "")


def _called_name(message: str) -> str:
    """The API a message names last in backquotes (`... API: `torch.cuda.is_available``), or ""."""
    parts = message.split("`")
    return parts[-2] if len(parts) >= 3 else ""


def _function_keys(findings: list, ctx, result, names, by: str = "category") -> dict:
    """(path, cell, line) -> the innermost function holding the line, for findings whose category (or rule, with
    by="rule") is in `names` ([context.values] one-per-function-categories, one-per-function-call-rules). Only
    files with two or more such findings are walked."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        lines = sorted({f.line for f in mine if getattr(f, by) in names})
        if len(lines) < 2:
            continue
        stack: list = [tree]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                if not isinstance(child, ast.stmt):
                    continue
                end = getattr(child, "end_lineno", None) or child.lineno
                lo, hi = bisect.bisect_left(lines, child.lineno), bisect.bisect_right(lines, end)
                if lo == hi:
                    continue
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for ln in lines[lo:hi]:  # inner functions are visited later and overwrite
                        out[(ctx.rel, cell, ln)] = (child.lineno, child.col_offset)
                stack.append(child)
    return out


def _mask_keys(findings: list, ctx, result) -> dict:
    """(path, cell, line, column) -> (function, mask text) for boolean-mask indexing findings: every later
    `y[mask]` in the function folds into the first `x[mask]`, since the port replaces one mask (one finding per
    thing). Only files with two or more such findings are walked."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        want = {(f.line, f.column) for f in mine if f.category in _MASK_CATEGORIES}
        if len(want) < 2:
            continue
        first = min(ln for ln, _ in want)
        same_masks: dict = {}  # (function, name) -> the mask it negates or indexes (`mask = ~m`, `idx = m.nonzero()`)
        bound: dict = {}  # (function, name) -> how many assignments bind it (a name bound twice is no alias)
        outer: set = set()  # positions whose outermost subscript or call was read
        stack: list = [(tree, None)]
        while stack:
            node, func = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Assign) and func is not None:
                    for t in child.targets:
                        if isinstance(t, ast.Name):
                            bound[(func, t.id)] = bound.get((func, t.id), 0) + 1
                    same = _same_mask(child)
                    if same is not None:
                        same_masks[(func, same[0])] = same[1]
                if (getattr(child, "end_lineno", None) or first) < first:
                    continue
                here = func
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    here = (child.lineno, child.col_offset)
                elif isinstance(child, ast.Assign) and func is not None:
                    name, places = _assigned_index(child, want)
                    for ln, col in places:
                        out.setdefault((ctx.rel, cell, ln, col), (func, name))
                elif isinstance(child, (ast.Subscript, ast.Call)) and (child.lineno, child.col_offset + 1) in want \
                        and (child.lineno, child.col_offset + 1) not in outer:
                    # the outermost node at the finding's position that names a mask is the one reported: in
                    # `nb[properties.idx_i][keep]` the inner `nb[properties.idx_i]` starts there too (while in
                    # `mask.nonzero().flatten()` the outer call names none and the inner one does)
                    text = _mask_operand(child) if isinstance(child, ast.Subscript) else \
                        _masked_select_mask(child) or _nonzero_mask(child)
                    if text is not None and func is not None:
                        outer.add((child.lineno, child.col_offset + 1))
                        out[(ctx.rel, cell, child.lineno, child.col_offset + 1)] = (func, text)
                stack.append((child, here))
        # `mask = ~inv_mask` selects the other places of the same mask, `idx = m.nonzero()` the same places: `row[m]`,
        # `row[mask]` and `col[idx]` in one function are one mask to replace
        same_masks = {k: v for k, v in same_masks.items() if bound.get(k) == 1}
        for key, (func, text) in out.items():
            seen = {text}
            while (func, text) in same_masks and same_masks[(func, text)] not in seen:
                text = same_masks[(func, text)]
                seen.add(text)
            out[key] = (func, text)
    return out


def _same_mask(st: ast.Assign):
    """(name, mask) for `name = ~mask`, `name = mask.logical_not()`, `name = torch.logical_not(mask)` (the other
    places of the mask) or `name = mask.nonzero()` followed by reshapes (`.view(-1)`, `.squeeze(1)`: its places),
    the mask a plain name or attribute; None otherwise."""
    if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
        return None
    v = st.value
    while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _RESHAPES:
        v = v.func.value
    indexed = _nonzero_mask(v) if isinstance(v, ast.Call) else None
    if indexed is not None:
        return st.targets[0].id, indexed
    if isinstance(v, ast.UnaryOp) and isinstance(v.op, (ast.Invert, ast.Not)):
        v = v.operand
    elif isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "logical_not" \
            and len(v.args) <= 1 and not v.keywords:
        v = v.args[0] if v.args else v.func.value
    else:
        return None
    return (st.targets[0].id, ast.unparse(v)) if isinstance(v, (ast.Name, ast.Attribute)) else None


_RESHAPES = frozenset({"view", "reshape", "squeeze", "flatten", "t", "contiguous"})


def _nonzero_mask(node):
    """The mask of `mask.nonzero()` / `torch.nonzero(mask)` / `mask.argwhere()` as text, or None: the indices of a
    mask are the places `x[mask]` selects, so both in one function are one mask to replace."""
    fn = node.func
    if not isinstance(fn, ast.Attribute) or fn.attr not in ("nonzero", "argwhere"):
        return None
    arg = fn.value if not node.args else node.args[0] if len(node.args) == 1 else None
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, (ast.Invert, ast.Not)):
        arg = arg.operand
    return ast.unparse(arg) if isinstance(arg, (ast.Name, ast.Attribute)) else None


def _statement_keys(findings: list, ctx, result) -> dict:
    """(path, cell, line) -> ("import" | "stmt", id of the innermost statement holding the line), for the
    lines that carry findings, from each syntax tree the reader reported. A statement spans from its first
    decorator to its last line, so a decorator stack belongs to its def."""
    out: dict = {}
    for tree, mine, cell in _trees(findings, ctx, result):
        lines = sorted({f.line for f in mine})
        if not lines:
            continue
        inner: dict = {}  # line -> (depth, kind, id, (block, position in it))
        stack = [(tree, 0)]
        while stack:
            node, depth = stack.pop()
            for field, value in ast.iter_fields(node):
                for pos, child in enumerate(value if isinstance(value, list) else (value,)):
                    if isinstance(child, ast.stmt):
                        start = min([child.lineno, *(d.lineno for d in getattr(child, "decorator_list", ()))])
                        end = getattr(child, "end_lineno", None) or child.lineno
                        kind = "import" if isinstance(child, (ast.Import, ast.ImportFrom)) else "stmt"
                        lo = bisect.bisect_left(lines, start)
                        hi = bisect.bisect_right(lines, end)
                        for ln in lines[lo:hi]:
                            if ln not in inner or inner[ln][0] <= depth:
                                inner[ln] = (depth, kind, (child.lineno, child.col_offset),
                                             ((id(node), field), pos, not hasattr(child, "body")))
                        if hi > lo:  # only statements holding a finding are worth descending into
                            stack.append((child, depth + 1))
                    elif isinstance(child, ast.AST) and not isinstance(child, ast.expr):
                        stack.append((child, depth))  # except handlers and match cases hold statements
        for ln, (_, kind, sid, place) in inner.items():
            out[(ctx.rel, cell, ln)] = (kind, sid, place)
    # A notebook line another reader read (shell `!pip install ...`, `%env`) is not Python code, whatever
    # placeholder the Python reader parsed in its place.
    for src in result.sources or ():
        if isinstance(getattr(src, "tree", None), ast.AST) or not src.text:
            continue
        for n, text in enumerate(src.text.splitlines(), 1):
            if text.strip():
                out.pop((ctx.rel, src.cell, n), None)
    return out


def self_check_blocks(findings: list, ctx, result) -> list:
    """Findings in the `if __name__ == "__main__":` block of a module inside a package (its folder has an
    `__init__.py`) get the scope `example`: such a block is the module's hand-run self-check or demo (a
    float64 reference, a benchmark), not code the package runs when imported. Top-level scripts, whose
    `__main__` block may be the program itself, keep the scope of their file."""
    if ctx.kind != "python" or not findings or ctx.path is None or not result.sources:
        return findings
    tree = getattr(result.sources[0], "tree", None)
    if not isinstance(tree, ast.Module) or not (ctx.path.parent / "__init__.py").is_file():
        return findings
    spans = [(st.lineno, st.end_lineno or st.lineno) for st in tree.body if _is_main_guard(st)]
    if not spans:
        return findings
    return [replace(f, scope="example") if f.cell is None and any(a <= f.line <= b for a, b in spans) else f
            for f in findings]


def _is_main_guard(st) -> bool:
    t = getattr(st, "test", None) if type(st) is ast.If else None
    if type(t) is not ast.Compare or len(t.ops) != 1 or type(t.ops[0]) is not ast.Eq:
        return False
    sides = (t.left, t.comparators[0])
    return any(type(x) is ast.Name and x.id == "__name__" for x in sides) and \
        any(type(x) is ast.Constant and x.value == "__main__" for x in sides)


def notebook_file_lines(findings: list, ctx, result) -> list:
    """Notebook findings also get their line in the .ipynb text (SARIF / GitHub annotate the file)."""
    if ctx.kind != "notebook" or not findings:
        return findings
    from .nblines import file_line, source_lines

    mapping = source_lines(ctx.text)
    return [_on_disk(f, mapping, file_line) if f.cell is not None else f for f in findings]


def _on_disk(f, mapping, file_line):
    """The finding's line and those of the places folded into it (same cell) in the .ipynb text."""
    places = tuple((ln, at) for ln in sorted({ln for ln, _c, _r in f.occurrences})
                   if (at := file_line(mapping, f.cell, ln)) is not None)
    return replace(f, file_line=file_line(mapping, f.cell, f.line), occurrence_file_lines=places)


def sort(findings: list, *_) -> list:
    return sorted(findings, key=lambda f: f.sort_key())


FILE_STEPS = (suppressions, dedupe, one_per_thing, device_functions, namespace_imports, self_check_blocks,
              notebook_file_lines, sort)


def file_findings(ctx, result) -> list:
    findings = result.findings
    for step in FILE_STEPS:
        findings = step(findings, ctx, result)
    return findings


# ---------------------------------------------------------------- report steps

def per_file_ignores(findings: list, root, config) -> list:
    """`per-file-ignores` of the configuration, applied to one file's findings."""
    if config.per_file_ignores and findings:
        return drop_per_file_ignores(findings, root, config)
    return findings


def report_findings(findings: list, engine, mentioned, root=None, config=None) -> list:
    """Repository-level rules (one finding per repository unless mentioned anywhere), vendored code, the
    scope of every finding (`[scopes]` of the config, then path conventions), then report order."""
    from .postprocess_cuda import cuda_helpers
    from .postprocess_extensions import extension_places
    from .postprocess_headers import unincluded_headers
    from .postprocess_kernel_tests import kernel_test_sources, kernel_tests
    from .repo_rules import collapse

    from .project.arch_lists import arch_lists
    from .project.build_commands import build_commands
    from .project.gpu_ci_files import gpu_ci_files
    from .project.lock_files import lock_places
    from .project.release_snapshots import release_snapshots
    from .project.uv_extras import uv_extras

    findings = cuda_helpers(unincluded_headers(collapse(findings, engine, mentioned, root), engine, root), engine, root)
    findings = kernel_tests(scopes(run_records(retired(vendored(findings, engine, root, config), engine, root, config),
                                               engine), root, config), engine)
    findings = uv_extras(build_commands(extension_places(kernel_test_sources(findings, engine, root), engine, root),
                                        root), root)
    findings = release_snapshots(arch_lists(findings, engine, root), root)
    findings = gpu_ci_files(findings, engine, root)
    from .postprocess_same_kernels import same_kernels

    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    findings = same_kernels(findings, frozenset(values.get("same-kernel-rules", ())), root)
    from .postprocess_project_folds import one_per_project

    findings = one_per_project(findings, frozenset(values.get("one-per-project-rules", ())))
    from .postprocess_same_settings import same_settings

    findings = same_settings(findings, frozenset(values.get("same-setting-kinds", ())), root,
                             int((values.get("same-setting-min-files") or ("3",))[0]))
    return sort(lock_places(findings, root))


def vendored(findings: list, engine, root=None, config=None) -> list:
    """Findings in a copy of another project kept in the tree are guarded (`guarded_by` "vendored"): a
    folder inside a directory named in `vendored-dirs` (`third_party/<project>/`, `dependencies/<project>/`).
    The project does not port that code; its own uses of the library are reported where they are. A folder named
    after one of the `copied-frameworks` below the top level of the repository is such a copy too
    (`annotator/uniformer/mmcv/`): a project pastes a whole framework to use one model of it, and a port
    changes that model, not the framework's training runner, ops and heads (which the project would list in
    `[scopes]` if it did own them). Not when the folder above it installs it (`detection/setup.py` beside
    `detection/mmdet/`, PytorchInsight) and is not named after the framework: that nested project develops its
    modified copy and runs its detection code from it. Nor when the folder is no package (no `__init__.py` of its
    own): that is an overlay of the project's files written to be dropped into the framework's tree
    (involution's `det/mmdet/models/utils/involution_cuda.py` beside a handful of its own backbones and necks), not
    a copy of the framework. A `[scopes]` glob of the config naming the file claims it as the project's own and
    keeps it reported."""
    from .config import Config

    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    names = frozenset(n.lower() for n in values.get("vendored-dirs", ()))
    own: frozenset = getattr(getattr(engine, "project", None), "own_packages", frozenset())
    frameworks = frozenset(n for n in values.get("copied-frameworks", ()) if n not in own)
    if not names and not frameworks:
        return findings
    config = config or Config()
    run: frozenset = getattr(engine, "imported_copies", frozenset())
    memo: dict = {}
    nested: dict = {}  # (parent folder, framework name) -> whether the nested project installs it
    packages: dict = {}  # folder -> whether it holds an __init__.py
    out = []
    for f in findings:
        hit = memo.get(f.path)
        if hit is None:
            # `third_party/<project>/...`: the named directory holds other projects, each in its own folder;
            # a file right inside it (`deps/requirements.txt`) is the project's own. A copy the project installs
            # and imports (project/installed_copies.py, set on the engine by the link step) is run by it.
            dirs = f.path.split("/")[:-1]
            hit = memo[f.path] = (any(seg.lower() in names for seg in dirs[:-1])
                                  and not any(f.path.startswith(c + "/") for c in run)
                                  or any(seg in frameworks and _is_package(root, dirs[:i + 1], packages)
                                         and not _nested_own_package(root, dirs[:i], seg, nested)
                                         for i, seg in enumerate(dirs) if i)) and \
                not _scope_glob_matches(f.path, root, config)
        out.append(replace(f, guarded=True, guarded_by="vendored") if hit and not f.guarded else f)
    return out


def _is_package(root, folder: list, memo: dict) -> bool:
    """The folder holds an `__init__.py` of its own (a pasted framework always does: it is imported whole). True
    when the root is unknown."""
    if root is None:
        return True
    key = "/".join(folder)
    got = memo.get(key)
    if got is None:
        got = memo[key] = (Path(root) / key / "__init__.py").is_file()
    return got


def _nested_own_package(root, parent: list, name: str, memo: dict) -> bool:
    """The framework folder `parent/name` is the package of a project nested at `parent`: that folder has packaging
    of its own (setup.py, setup.cfg, pyproject.toml) and is not named after the framework (PytorchInsight's
    `detection/` ships its modified `mmdet/` with the setup.py that installs it; a cloned `mmdetection3d/` beside
    the project is still a copy). The project develops that package: its detection code runs from it."""
    if root is None or not parent:
        return False
    key = ("/".join(parent), name)
    got = memo.get(key)
    if got is None:
        folder = parent[-1].lower().replace("-", "").replace("_", "")
        stem = name.lower()
        stem = stem[:len(stem) - len(stem.lstrip("abcdefghijklmnopqrstuvwxyz"))] or stem  # mmdet3d: mmdet
        got = memo[key] = stem not in folder and any(
            (Path(root) / "/".join(parent) / m).is_file() for m in ("setup.py", "setup.cfg", "pyproject.toml"))
    return got


def retired(findings: list, engine, root=None, config=None) -> list:
    """Findings in a folder the project itself marks as retired (`retired-dirs`: `deprecated/`, anywhere in the
    path: mmskeleton's `deprecated/origin_stgcn_repo/`, the st-gcn code it replaced) are guarded (`guarded_by`
    "retired"), unless a Python file of the scan outside that folder imports from it (`from pkg.deprecated import
    x`: code kept for callers is still run) or a `[scopes]` glob claims the file. Every recorded verdict on such a
    finding (six, fresh48 and earlier) judged it wrong."""
    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    names = frozenset(n.lower() for n in values.get("retired-dirs", ()))
    if not names:
        return findings
    from .config import Config

    config = config or Config()

    def folder(path: str) -> str:
        parts = path.split("/")[:-1]
        for i, seg in enumerate(parts):
            if seg.lower() in names:
                return "/".join(parts[:i + 1])
        return ""

    folders = {folder(f.path) for f in findings if not f.guarded} - {""}
    if not folders:
        return findings
    live = _imported_folders(folders, root) if root is not None else set(folders)
    out = []
    for f in findings:
        d = folder(f.path) if not f.guarded else ""
        if d and d not in live and not _scope_glob_matches(f.path, root, config):
            f = replace(f, guarded=True, guarded_by="retired")
        out.append(f)
    return out


def run_records(findings: list, engine) -> list:
    """Findings in a YAML or JSON file under a folder that holds what runs wrote (`run-record-dirs`: `saved_models/`,
    `results/`, `logs/`, `lightning_logs/`, `wandb/`, `mlruns/`, at any depth) are guarded (`guarded_by`
    "run-record"): the `config.json` a trainer saved beside its weights records the device of a past run, and
    nothing reads it to choose the next one (Improving-critical-exponents_pytorch's
    `saved_models/progan/*/config.json`, ten blind80 look-alikes; recall labels under such folders: 28 look-alikes,
    one hit). Python files there stay: a script kept with its results still runs."""
    from .filekinds import kind_of

    values = getattr(getattr(engine, "catalogue", None), "context_values", {})
    names = frozenset(n.lower() for n in values.get("run-record-dirs", ()))
    if not names:
        return findings
    out = []
    for f in findings:
        if not f.guarded and "/" in f.path and kind_of(f.path.rsplit("/", 1)[-1]) in ("yaml", "json") \
                and any(seg.lower() in names for seg in f.path.split("/")[:-1]):
            f = replace(f, guarded=True, guarded_by="run-record")
        out.append(f)
    return out


def _imported_folders(folders: set, root) -> set:
    """The folders some Python file outside them imports from: an import naming the folder's last name as a part of
    a dotted module (`from mmskeleton.deprecated import x`, `from .deprecated.io import y`)."""
    import os

    from .project.mentions import import_modules

    base = os.fspath(root)
    if os.path.isfile(base):
        return set()
    lasts = {d: d.rsplit("/", 1)[-1] for d in folders}
    live: set = set()
    for here, dirs, files in os.walk(base):
        rel_here = os.path.relpath(here, base).replace(os.sep, "/")
        rel_here = "" if rel_here == "." else rel_here
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for name in files:
            if not name.endswith(".py"):
                continue
            rel = f"{rel_here}/{name}" if rel_here else name
            todo = [d for d in folders if d not in live and not rel.startswith(d + "/")]
            if not todo:
                continue
            try:
                with open(os.path.join(here, name), encoding="utf-8", errors="replace") as fh:
                    text = fh.read(1 << 20)
            except OSError:
                continue
            if not any(lasts[d] in text for d in todo):
                continue
            for module in import_modules(text):
                at = _module_folder(module, rel_here, lasts)
                live.update(d for d in todo if at and (d == at or d.endswith("/" + at)))
        if len(live) == len(folders):
            break
    return live


def _module_folder(module: str, here: str, lasts: dict) -> str:
    """The folder path an imported dotted module names, cut after its first retired part (`mmskeleton.deprecated.io`
    -> "mmskeleton/deprecated"; `..deprecated.io` from `pkg/sub` -> "pkg/deprecated"), or "" when no part is one.
    An absolute path is matched against the end of a folder's path (a `lib/` root on sys.path)."""
    dots = len(module) - len(module.lstrip("."))
    parts = [p for p in module[dots:].split(".") if p]
    names = set(lasts.values())
    cut = next((i for i, p in enumerate(parts) if p in names), None)
    if cut is None:
        return ""
    head = parts[:cut + 1]
    if dots:
        base = here.split("/") if here else []
        base = base[:len(base) - (dots - 1)] if dots > 1 else base
        head = base + head
    return "/".join(head)


def scopes(findings: list, root=None, config=None) -> list:
    """Each finding gets the scope of its file (trnready/scope.py), overridable by `[scopes]` globs. A
    finding a file step placed in a module's self-check block (scope `example`) keeps it when its file is
    plain `source` by the path conventions and no glob says otherwise."""
    from .config import Config, scope_of
    from .scope import classify

    config = config or Config()
    memo: dict = {}
    out = []
    for f in findings:
        sc = memo.get(f.path)
        if sc is None:
            sc = memo[f.path] = scope_of(f.path, root, config)
        if f.scope == "example" and sc == "source" and classify(f.path) == "source" and \
                not _scope_glob_matches(f.path, root, config):
            sc = "example"
        out.append(f if f.scope == sc else replace(f, scope=sc))
    return out


def _scope_glob_matches(rel: str, root, config) -> bool:
    """Whether a `[scopes]` glob of the config names the file (then its scope is the project's word)."""
    if not config.scopes:
        return False
    from pathlib import Path

    from .config import path_matches

    rels = [rel]
    if config.base_dir and root is not None:
        try:
            rels.append((Path(root).absolute() / rel).relative_to(Path(config.base_dir)).as_posix())
        except ValueError:
            pass
    return any(path_matches(r, glob) for glob, _ in config.scopes for r in rels)
