"""Python sources -> findings: parse once, index once, match once.

setup.py is also a manifest: its install_requires & co are read from the same syntax tree by
readers/manifests.py.
"""
from __future__ import annotations

import ast
import re
import sys
import warnings
from dataclasses import replace

from ..index import Indexer
from ..match import Engine, Hit
from ..model import Diagnostic, Finding, Occurrences, make_finding
from ..rewrite import FixableCheck
from .context import FileContext, ReadResult, Source

# the modules pytest collects by default: it imports them by name, nothing else does
_TEST_MODULE = re.compile(r"^(test_\w*|\w+_test)\.py$")


def parse(text: str, rel: str) -> tuple[ast.Module | None, Diagnostic | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our business
            tree = ast.parse(text, filename=rel)
        # Kept on the tree for the predicates' first looks (FileContext.may_name); lives as long as the tree.
        tree.trnready_text = text
        return tree, None
    except SyntaxError as e:
        old = _reserved_word_tree(text, rel, e) or _python2_tree(text, rel, e) or _new_fstring_tree(text, rel)
        if old is not None:
            return old, None
        where = f"line {e.lineno}" if e.lineno else "unknown line"
        hint = ""
        if "print" in (e.text or "") or "Missing parentheses" in (e.msg or ""):
            hint = " (looks like Python 2; TorchNeuron needs Python 3.12-3.14)"
        else:
            hint = (f" (if the file uses syntax newer than Python {sys.version_info.major}."
                    f"{sys.version_info.minor}, run trnready under a newer Python)")
        return None, Diagnostic(rel, "syntax-error", f"{where}: {e.msg}{hint}")
    except (RecursionError, MemoryError):
        return None, Diagnostic(rel, "too-complex", "nesting too deep for the Python parser")
    except ValueError as e:  # e.g. source contains NUL bytes
        return None, Diagnostic(rel, "syntax-error", str(e))


_RESERVED = re.compile(r"\b(?:async|await)\b")


def _reserved_word_tree(text: str, rel: str, error: SyntaxError):
    """The tree of a file written for Python 3.6 or older that uses `async` or `await` as a name
    (`target.cuda(async=True)`, PyTorch 0.3's spelling of non_blocking): both are reserved words since Python 3.7,
    so the file does not parse on any Python TorchNeuron runs on. It is read with the 3.6 grammar instead, so that
    its device code is still scanned, and the keyword argument is a finding of its own (TRN323). None when the
    error is something else or the old grammar fails too."""
    if not _RESERVED.search(error.text or ""):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=rel, feature_version=(3, 6))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    tree.trnready_text = text
    return tree


def _new_fstring_tree(text: str, rel: str):
    """The tree of a file whose f-strings use Python 3.12's grammar (`f"{row["name"]}"`), which the running
    Python (older than 3.12) rejects: read with those f-strings rewritten for it, column for column
    (readers/fstrings.py). None when the file holds none or still does not parse."""
    if sys.version_info >= (3, 12):
        return None
    from .fstrings import backport

    fixed = backport(text)
    if fixed is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(fixed, filename=rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    tree.trnready_text = text
    return tree


# What Python 3 says of the two Python 2 statements most old research scripts hold: `print "x"` and
# `except Exception, e:`
_PY2_ERRORS = ("Missing parentheses in call to 'print'", "multiple exception types must be parenthesized")
# tokens after `print` that make it an expression of Python 3 (`print(x)`, `print = f`, `print.x`, `print, x`)
_NOT_STATEMENT = frozenset({"(", "=", ".", ",", ")", "[", ":", ";"})


def _python2_tree(text: str, rel: str, error: SyntaxError):
    """The tree of a Python 2 script (a 2017 `train` script: `print "epoch", i` and `except IOError, e:`), read
    with each print statement written as a call and each `except X, e:` as `except X as e:`, line for line, so
    that its device code is still scanned (the lines keep their numbers, and the code after `print ` its columns).
    None when the error is something else, or the file still does not parse (a `print >>f, x`, backticks, ...)."""
    if not any(m in (error.msg or "") for m in _PY2_ERRORS):
        return None
    import io
    import tokenize

    edits: list = []  # (row, col, length replaced, new text), rows 1-based
    rewritten: list = []  # (row, col, form) of every statement rewritten: the first is the finding, the rest its places
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    start = True  # at the first token of a logical line
    for i, t in enumerate(toks):
        first, start = start, t.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or t.string == ";"
        if not first or t.type != tokenize.NAME:
            continue
        if t.string == "print":
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is None or nxt.string in _NOT_STATEMENT or nxt.string == ">>":
                if nxt is not None and nxt.string == ">>":
                    return None  # `print >>f, x`: not rewritten line for line
                continue
            end = next((u for u in toks[i + 1:] if u.type in (tokenize.NEWLINE, tokenize.ENDMARKER)
                        or u.string == ";"), None)
            if end is None:
                return None
            rewritten.append((t.start[0], t.start[1], "print statement"))
            if nxt.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or nxt.string == ";":
                edits.append((t.end[0], t.end[1], 0, "()"))  # a bare `print`: an empty line
                continue
            # `print x` -> `print(x`: the blank after print becomes the bracket when there is one
            gap = nxt.start[1] - t.end[1] if nxt.start[0] == t.end[0] else 0
            edits.append((t.end[0], t.end[1], 1 if gap >= 1 else 0, "("))
            last = toks[toks.index(end) - 1]
            edits.append((last.end[0], last.end[1], 0, ")"))
        elif t.string == "except":
            depth = 0
            for u in toks[i + 1:]:
                if u.string in "([{" and u.type == tokenize.OP:
                    depth += 1
                elif u.string in ")]}" and u.type == tokenize.OP:
                    depth -= 1
                elif u.string == ":" and depth == 0:
                    break
                elif u.string == "," and depth == 0:
                    edits.append((u.start[0], u.start[1], 1, " as"))
                    rewritten.append((t.start[0], t.start[1], "except E, name:"))
                    break
    if not edits:
        return None
    lines = text.splitlines(keepends=True)
    for row, col, n, new in sorted(edits, reverse=True):
        if not 0 < row <= len(lines):
            return None
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[col + n:]
    fixed = "".join(lines)
    # a Python 2 script of PyTorch 0.3 also passes `async=True` (places365's train_placesCNN.py): the 3.6 grammar
    for version in (None, (3, 6)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(fixed, filename=rel, feature_version=version)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        tree.trnready_text = text
        # `trnready fix` leaves it alone (rewritten, it would still not parse); a `syntax` rule reports it here
        tree.trnready_python2 = _statement_at(tree, rewritten[0] if rewritten else None) or True
        # every rewritten statement is a place of the module's one finding (`print netG`, then `print netD`, ...)
        tree.trnready_python2_all = [got for got in (_statement_at(tree, r) for r in rewritten[:200]) if got]
        return tree
    return None


def _statement_at(tree, first):
    """(node, form) of the rewritten statement starting at (row, col): the `print(...)` call or the `except`
    handler; None when no node starts there."""
    if first is None:
        return None
    row, col, form = first
    want = ast.Call if form.startswith("print") else ast.ExceptHandler
    for node in ast.walk(tree):
        if type(node) is want and node.lineno == row and node.col_offset == col:
            return node, form
    return None


def _column(line: str, byte_offset: int) -> int:
    """ast columns count UTF-8 bytes; reports count characters (1-based)."""
    if line.isascii():
        return byte_offset + 1
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore")) + 1


def hits_for_tree(tree: ast.Module, engine: Engine, rel: str = "") -> list[Hit]:
    index = Indexer(engine.interest).run(tree)
    # Kept on the tree (which lives as long as the file's scan) for the project summary: no second walk.
    tree.trnready_calls = index.every_call
    tree.trnready_imports = index.every_import
    try:
        return engine.match(index, path=rel)
    finally:
        index.release()


def findings_from_hits(hits: list[Hit], lines: list[str], rel: str, cell: int | None = None,
                       line_offset: int = 0, tree: ast.AST | None = None,
                       occurrences: Occurrences | None = None) -> list[Finding]:
    """`occurrences` numbers repeats of identical code; a notebook passes one for all its cells, so that the
    same line in two cells gets two fingerprints."""
    out: list[Finding] = []
    fixable = FixableCheck(tree)
    seen: set = set()
    occurrences = occurrences if occurrences is not None else Occurrences()
    hits = sorted(hits, key=lambda h: (h.node.lineno, h.node.col_offset, h.rule.id))
    for h in hits:
        node = h.node
        key = (h.rule.id, node.lineno, node.col_offset)
        if key in seen:
            continue
        seen.add(key)
        lineno = node.lineno
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        end_lineno = getattr(node, "end_lineno", None) or lineno
        end_text = lines[end_lineno - 1] if 0 < end_lineno <= len(lines) else ""
        col = _column(text, node.col_offset)
        end_col = _column(end_text, getattr(node, "end_col_offset", node.col_offset) or 0)
        code = ast_segment(lines, node) or text
        message = h.matcher.message.format(name=h.name) if h.matcher.message else f"{h.rule.title}: `{h.name}`"
        message += h.note
        out.append(make_finding(
            h.rule if h.severity is None else replace(h.rule, severity=h.severity), occurrences,
            confidence=h.confidence or h.matcher.confidence,
            path=rel, line=lineno + line_offset, column=col, end_line=end_lineno + line_offset, end_column=end_col,
            snippet=text, message=message, code=code, cell=cell, context=context_lines(lines, lineno, line_offset),
            fixable=fixable(h.rule, node, h.qualname), guarded=h.guarded, guarded_by=h.guard))
        if h.also:
            out[-1] = replace(out[-1], occurrences=tuple(
                (a.lineno + line_offset, _column(lines[a.lineno - 1] if 0 < a.lineno <= len(lines) else "",
                                                 a.col_offset), h.rule.id) for a in h.also))
    return out


CONTEXT_LINES = 2  # lines shown above and below a finding in the HTML report


def context_lines(lines: list[str], lineno: int, line_offset: int = 0) -> tuple[tuple[int, str], ...]:
    """((line_no, text), ...) for lineno-2..lineno+2, clipped to the file."""
    first = max(1, lineno - CONTEXT_LINES)
    last = min(len(lines), lineno + CONTEXT_LINES)
    return tuple((n + line_offset, lines[n - 1].rstrip("\r\n")) for n in range(first, last + 1))


def ast_segment(lines: list[str], node) -> str:
    """The node's source, cut to at most a few lines (fingerprints need no more)."""
    start, end = node.lineno, getattr(node, "end_lineno", None) or node.lineno
    if end - start > 5:
        end = start + 5
    chunk = lines[start - 1:end]
    return "\n".join(chunk)


def scan_python(text: str, rel: str, engine: Engine, cell: int | None = None, tree: ast.AST | None = None):
    """Python text -> (raw findings, diagnostic or None, syntax tree). Suppressions are not applied here."""
    if tree is None:
        tree, diag = parse(text, rel)
        if diag is not None:
            return [], diag, None
    try:
        hits = hits_for_tree(tree, engine, rel)
    except RecursionError:
        return [], Diagnostic(rel, "too-complex", "nesting too deep to analyse"), None
    return findings_from_hits(hits, text.splitlines(), rel, cell=cell, tree=tree), None, tree


def read(ctx: FileContext) -> ReadResult:
    from .python_configs import config_module_findings, may_be_config_module
    from .yacs_configs import may_be_yacs_defaults, yacs_findings

    setup_py = ctx.name == "setup.py"
    tree = None
    findings: list = []
    notes: list = []
    tops: list = []
    if not (ctx.prefilter and not ctx.engine.may_match(ctx.text)):
        tree, diag = parse(ctx.text, ctx.rel)
        if diag is not None:
            return ReadResult(diag=diag)
        findings, diag, _ = scan_python(ctx.text, ctx.rel, ctx.engine, tree=tree)
        if diag is not None:
            return ReadResult(diag=diag)
        from .job_scripts import job_script_findings

        findings = findings + job_script_findings(ctx, tree)
        from .dataclass_settings import dataclass_setting_findings

        findings = findings + dataclass_setting_findings(ctx, tree)
        cfg_found, notes, tops = config_module_findings(ctx, tree, findings)
        if not tops:  # not an mmcv-style module: perhaps yacs defaults (`_C.DIST_BACKEND = "nccl"`)
            cfg_found, notes, tops = yacs_findings(ctx, tree, findings)
        findings = findings + cfg_found
        if not tops:  # a DeepSpeed config built as a dict in code (`"fp16": {"enabled": True}`)
            from .ds_config_dicts import ds_dict_findings

            findings = findings + ds_dict_findings(ctx, tree, findings)
        from .extension_sources import with_source_places

        values = getattr(getattr(ctx.engine, "catalogue", None), "context_values", None) or {}
        findings = with_source_places(tree, findings, values.get("extension-build-rules", ()),
                                      tuple(values.get("cuda-toolkit-words", ())))
    elif not setup_py:
        # Nothing any rule looks for occurs in the text, but the file may still hand a value or a
        # re-export to another module: only its summary is wanted; and strings holding shell text
        # (`"qwenllm/qwen:cu117"`, `"docker run --gpus all ..."`) are read by the shell line matchers.
        from .job_scripts import may_hold_shell_text

        yacs = may_be_yacs_defaults(ctx.text)  # `_C.AMP_TYPE = 'float16'`: no rule's token either
        if may_be_config_module(ctx.rel, ctx.text) or yacs:  # `mixed_precision = 'fp16'` in configs/: no token
            tree, diag = parse(ctx.text, ctx.rel)
            cfg_found, notes, tops = config_module_findings(ctx, tree) if diag is None else ([], [], [])
            if not tops and yacs and diag is None:
                cfg_found, notes, tops = yacs_findings(ctx, tree)
            if cfg_found:
                return ReadResult(cfg_found, None, [Source(ctx.text, ("python",), tree=tree)],
                                  summary=_with_settings(project_summary(ctx, tree), notes, tops))
        if may_hold_shell_text(ctx.text):
            tree, diag = parse(ctx.text, ctx.rel)
            if diag is None:
                from .job_scripts import job_script_findings

                found = job_script_findings(ctx, tree)
                if found:
                    return ReadResult(found, None, [Source(ctx.text, ("python",), tree=tree)],
                                      summary=project_summary(ctx, None))
        return ReadResult(summary=project_summary(ctx, None))
    if setup_py:  # install_requires & co, read from the same syntax tree (parsed once)
        if tree is None:
            tree, diag = parse(ctx.text, ctx.rel)
        if tree is not None:
            findings = findings + setup_py_findings(ctx, tree)
    return ReadResult(findings, None, [Source(ctx.text, ("python",), tree=tree)],
                      summary=_with_settings(project_summary(ctx, tree, getattr(tree, "trnready_calls", None),
                                                             findings), notes, tops))


def _with_settings(summary: dict | None, notes: list, tops: list) -> dict | None:
    """A config module's setting notes, as a YAML config's summary holds them (project/config_keys.py)."""
    if summary is not None and notes:
        summary["settings"] = notes
        summary["tops"] = tops
    return summary


def project_summary(ctx: FileContext, tree, calls: list | None = None, findings=()) -> dict | None:
    """The file's summary for the project-wide link step (None when the link step is off or the
    file holds nothing another module could use)."""
    if not getattr(ctx.engine, "link", False) or not _may_export(ctx.text):
        return None
    if tree is None:
        from ..project.summary import worth_parsing

        # Skipped by the prefilter: parsed for its summary only when it could hand another module
        # something (a package's re-exports, or a literal some rule's argument looks for).
        if not worth_parsing(ctx.text, ctx.name, ctx.engine):
            return None
        tree, diag = parse(ctx.text, ctx.rel)
        if tree is None:
            return None
    from ..project.summary import api_names, summarize

    try:
        summary = summarize(tree, api_names(ctx.engine), calls,
                            getattr(getattr(ctx.engine, "catalogue", None), "context_values", None),
                            built=kernel_builds(findings), import_nodes=getattr(tree, "trnready_imports", None))
    except RecursionError:
        return None
    from ..project.switch_conditions import add_switches

    add_switches(summary, tree, ctx.text, findings, calls)  # blocks of findings under config-key conditions
    from ..project.option_defaults import option_switches

    opts = option_switches(tree, ctx.text, getattr(getattr(ctx.engine, "catalogue", None), "context_values", None),
                           calls)
    if opts:
        summary["optswitches"] = opts  # option defaults that may switch a finding on (project/option_defaults.py)
    if "skip" in ctx.text and _TEST_MODULE.match(ctx.name):
        # a test module whose skip marks read a project function's answer, kept at import: when the function
        # cannot return without CUDA, those tests never run on Neuron (context/_needs_cuda.py, project/flags.py)
        from ..project.kept_answers import import_time_flags
        from ..project.summary import project_modules

        summary["guards"] = summary["guards"] + import_time_flags(tree, project_modules(summary["imports"]))
    if "fixture" in ctx.text:
        # pytest fixtures that skip without CUDA, for the tests of a conftest's folder (project/conftest_fixtures.py)
        from ..project.conftest_fixtures import fixture_flags

        summary["flags"] = summary["flags"] + fixture_flags(
            tree, getattr(getattr(ctx.engine, "catalogue", None), "context_values", None) or {}, summary["flags"])
    if _TEST_MODULE.match(ctx.name) and "def test" in ctx.text:
        # its tests requesting fixtures it does not define: skipped when a conftest's fixture skips without CUDA
        from ..project.conftest_fixtures import fixture_guards
        from ..project.skip_markers import marker_guards
        from ..project.summary import project_modules

        linked = fixture_guards(tree) + marker_guards(tree, project_modules(summary["imports"]))
        if linked:
            from ..project.skip_markers import helper_refs

            linked += helper_refs(tree)
        summary["guards"] = summary["guards"] + linked
    if "skip" in ctx.text or "SkipTest" in ctx.text:
        # skip markers other modules' tests import (`skip_if_single_gpu = pytest.mark.skipif(...)`), and test
        # classes whose setUp skips (`raise unittest.SkipTest(...)`) that others derive from
        from ..project.skip_markers import marker_flags

        summary["flags"] = summary["flags"] + marker_flags(
            tree, ctx.text, getattr(getattr(ctx.engine, "catalogue", None), "context_values", None) or {}, ctx.rel)
    from ..project.overwritten_facts import keyword_facts, overwritten_table

    # what the overwritten-parameter step reads of the syntax trees, so that it parses nothing again
    kw = keyword_facts(tree, findings, summary)
    if kw:
        summary["kw"] = kw
    over = overwritten_table(tree)
    if over:
        summary["over"] = over
    return summary


def kernel_builds(findings) -> dict:
    """(line, column) -> [rule, confidence, message] of the file's custom-cuda-kernel findings: a build call
    among them (`CUDAExtension(name="pkg._C", ...)`) names a module the project compiles from CUDA sources."""
    out: dict = {}
    for f in findings:
        if f.category == "custom-cuda-kernel" and f.cell is None:
            # more build calls of the file folded into this finding (one finding per thing) count too
            for line, column, _rule in ((f.line, f.column, f.rule), *f.occurrences):
                out.setdefault((line, column), [f.rule, f.confidence, f.message, f.guarded or f.suppressed])
    return out


def _may_export(text: str) -> bool:
    # A file with no import, def, class or assignment gives the link step nothing; most such files
    # are empty __init__.py files, which still make a package (module_names sees their path).
    return "import" in text or "def " in text or "class " in text or "=" in text


def setup_py_findings(ctx: FileContext, tree: ast.Module) -> list:
    """install_requires, python_requires & co of a setup.py (never executed)."""
    from .. import requirements as rq
    from .emit import Emitter, emit_deps, emit_pyreqs

    em = Emitter(ctx.rel)
    lines = ctx.text.splitlines()
    man = rq.parse_setup_py(tree, lines)
    emit_deps(man.deps, lines, ctx.engine, em, ctx.text)
    emit_pyreqs(man.pyreqs, lines, ctx.engine, em, ctx.text)
    return em.out
