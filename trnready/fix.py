"""`trnready fix`: apply the catalogue's rewrites at the places the scanner reports.

The scanner decides *where* (its findings: rule and position); the catalogue
decides *what* ([[rule.rewrite]] tables, see rewrite.py); libcst performs the
edit, so every byte outside an edited node stays as it was (comments, quotes,
line endings, encoding, BOM).

Per file: read the bytes once, re-run the scanner's own stages on exactly those
bytes (parse -> index -> match, never a second matcher), keep the findings the
project scan reported as active (so suppressions and --select/--ignore apply),
choose a rewrite per finding, transform with libcst, check the result still
parses, and produce a unified diff. `write_fix()` re-reads the file right before
replacing it and skips it when it changed in between.

Other file kinds plug in through `EDITORS` (kind -> function returning a
`FileFix`). Notebooks are one: findings carry a `cell`, each Python cell is
rewritten like a file with its IPython magics masked and put back verbatim.
"""
from __future__ import annotations

import ast
import difflib
import hashlib
import io
import json
import os
import tempfile
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

with warnings.catch_warnings():  # libcst 1.0 imports a metadata provider that warns about mypy_extensions
    warnings.simplefilter("ignore", DeprecationWarning)
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

from .api import build_engine, scan
from .catalogue import Catalogue, load_catalogue
from .config import Config
from .filekinds import BY_KIND, kind_of
from .match import Engine, Hit
from .model import Finding, Report
from .readers.notebook import HELP, MAGIC, classify_cell
from .readers.python import _column, findings_from_hits, hits_for_tree, parse
from .read import decode_python, read_bytes
from .rewrite import Rewrite, choose, split_device

STYLES = ("neuron", "accelerator")


@dataclass
class Target:
    """One finding to rewrite, with the scanner's node for it and the chosen rewrite."""

    finding: Finding
    hit: Hit
    rewrite: Optional[Rewrite] = None


@dataclass
class FileFix:
    rel: str
    path: Path
    old: str = ""
    new: str = ""
    data: bytes = b""  # the bytes the edit is based on
    encoding: str = "utf-8"
    applied: list = field(default_factory=list)  # Findings rewritten
    left: list = field(default_factory=list)  # (Finding, reason) not rewritten
    error: str = ""  # why the file is not touched at all
    written: bool = False

    @property
    def changed(self) -> bool:
        return not self.error and self.new != self.old

    def diff(self) -> str:
        if not self.changed:
            return ""
        return unified_diff(self.old, self.new, self.rel)


@dataclass
class FixPlan:
    report: Report
    files: list = field(default_factory=list)  # FileFix, in path order
    unsafe_skipped: int = 0  # fixable medium-confidence findings left without --unsafe
    unsupported: list = field(default_factory=list)  # (path, reason): file kinds fix cannot edit yet

    @property
    def changed(self) -> list:
        return [f for f in self.files if f.changed]

    def fix_count(self) -> int:
        return sum(len(f.applied) for f in self.changed)


# -- planning -------------------------------------------------------------------

def plan(paths, config: Config | None = None, style: str = "neuron", unsafe: bool = False,
         catalogue: Catalogue | None = None) -> FixPlan:
    """Scan, then compute every rewrite and its diff. Writes nothing."""
    if style not in STYLES:
        raise ValueError(f"unknown device style {style!r}")
    config = config or Config()
    cat = catalogue or load_catalogue(config.catalogue, list(config.extend_catalogue))
    report = scan(paths, config, cat)
    engine = build_engine(config, cat)
    result = FixPlan(report)
    wanted: dict[str, list[Finding]] = {}
    for f in report.active:
        if not f.fixable:
            continue
        if f.confidence != "high" and not unsafe:
            result.unsafe_skipped += 1
            continue
        wanted.setdefault(f.path, []).append(f)
    root = Path(report.root)
    for rel in sorted(wanted):
        findings = wanted[rel]
        path = root / rel
        kind = kind_of(path.name) or "python"
        editor = EDITORS.get(BY_KIND[kind].editor or "")
        if editor is None or (kind != "notebook" and any(f.cell is not None for f in findings)):
            result.unsupported.append((rel, f"fix cannot edit {kind} files yet"))
            continue
        result.files.append(editor(path, rel, findings, engine, config, style))
    return result


def _fix_python(path: Path, rel: str, findings: list[Finding], engine: Engine, config: Config,
                style: str) -> FileFix:
    ff = FileFix(rel=rel, path=path)
    data, diag = read_bytes(path, rel, config.max_file_size)
    if diag is not None:
        ff.error = diag.message
        return ff
    text, diag = decode_python(data, rel)
    if diag is not None:
        ff.error = diag.message
        return ff
    ff.data, ff.old, ff.new = data, text, text
    ff.encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    new, applied, left, error = fix_text(text, rel, findings, engine, style)
    ff.left.extend(left)
    if error:
        ff.error = error
    else:
        ff.new, ff.applied = new, applied
    return ff


def fix_text(text: str, rel: str, findings: list[Finding], engine: Engine, style: str, cell: Optional[int] = None,
             aliases: Optional[dict] = None):
    """One Python source (a file, or a notebook cell) -> (new text, applied, [(finding, reason)], error).

    `aliases` (module -> local name) are imports known from elsewhere (a notebook's other cells)."""
    tree, diag = parse(text, rel)
    if diag is not None:  # never touch code that does not parse
        return text, [], [], diag.message
    left: list = []
    targets = _targets(tree, text, rel, findings, engine, left, cell)
    if not targets:
        return text, [], left, ""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    rules = engine.catalogue.by_id()
    chosen = []
    for t in targets:
        t.rewrite = choose(rules[t.finding.rule].rewrites, t.hit.node, t.hit.qualname, style, parents)
        if t.rewrite is None:
            left.append((t.finding, f"no {style}-style rewrite fits this code"))
        else:
            chosen.append(t)
    if not chosen:
        return text, [], left, ""
    try:
        new, applied, not_done = rewrite_source(text, chosen, aliases)
    except Exception as e:  # libcst could not handle it: leave the code as it is
        return text, [], left, f"rewrite failed: {type(e).__name__}: {e}"
    left.extend(not_done)
    try:
        ast.parse(new)
    except SyntaxError as e:
        return text, [], left, f"the rewritten code would not parse (line {e.lineno}: {e.msg}); left unchanged"
    return new, applied, left, ""


def _targets(tree, text: str, rel: str, findings: list[Finding], engine: Engine, left: list,
             cell: Optional[int] = None) -> list[Target]:
    """Pair each reported finding with the scanner's hit on the text we just read."""
    hits = hits_for_tree(tree, engine)
    lines = text.splitlines()
    local = {(f.rule, f.line, f.column, f.fingerprint): f
             for f in findings_from_hits(hits, lines, rel, cell=cell, tree=tree)}
    by_pos: dict = {}
    for h in hits:
        node = h.node
        line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
        by_pos.setdefault((h.rule.id, node.lineno, _column(line, node.col_offset)), h)
    out = []
    for f in findings:
        key = (f.rule, f.line, f.column, f.fingerprint)
        if key not in local:
            left.append((f, "the file changed since it was scanned"))
            continue
        out.append(Target(local[key], by_pos[(f.rule, f.line, f.column)]))
    return out


# -- notebooks ------------------------------------------------------------------------
# Findings in a notebook carry `cell` (index in the cells list) and cell-relative lines, computed on
# the cell's code with IPython magics, shell escapes and help lines replaced by `pass` (the notebook
# reader blanks them the same way, so positions agree). Here each such line becomes `pass` plus a
# marker comment, the cell is rewritten like a file, and the marked lines are put back verbatim.

_MARK = "# trnready-fix-kept-line-"


def mask_cell(src: str):
    """A code cell -> (Python text with magic lines marked, {marker: original line}) or None
    for cells that are not Python (%%bash, %%html, ...). Which lines are magics: readers/notebook.py."""
    mode, marks = classify_cell(src)
    if mode != "python":
        return None
    kept: dict = {}
    out = []
    for n, ln in enumerate(src.splitlines(keepends=True)):
        if n not in marks:
            out.append(ln)
            continue
        body = ln.rstrip("\r\n")
        marker = f"{_MARK}{n}"
        kept[marker] = body
        indent = body[:len(body) - len(body.lstrip())]
        out.append(f"{indent}{'pass  ' if marks[n] in (MAGIC, HELP) else ''}{marker}{ln[len(body):]}")
    return "".join(out), kept


def unmask_cell(text: str, kept: dict):
    """Put the marked lines back; None if a marker went missing or moved into other code."""
    out = []
    seen = set()
    for ln in text.splitlines(keepends=True):
        body = ln.rstrip("\r\n")
        i = body.find(_MARK)
        if i >= 0:
            marker = body[i:]
            if marker not in kept or body[:i].strip() not in ("", "pass"):
                return None
            seen.add(marker)
            ln = kept[marker] + ln[len(body):]
        out.append(ln)
    return "".join(out) if seen == set(kept) else None


def _notebook_dumper(nb, text: str):
    """The json.dumps settings that reproduce `text` exactly (nbformat writes indent=1, sorted keys)."""
    for indent in (1, 2, 4, None):
        for sort_keys in (True, False):
            for ensure_ascii in (False, True):
                def dump(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii):
                    return json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
                out = dump(nb)
                for tail in ("\n", "", "\r\n"):
                    if out + tail == text:
                        return lambda obj, dump=dump, tail=tail: dump(obj) + tail
    return None


def _fix_notebook(path: Path, rel: str, findings: list[Finding], engine: Engine, config: Config,
                  style: str) -> FileFix:
    ff = FileFix(rel=rel, path=path)
    data, diag = read_bytes(path, rel, config.max_file_size)
    if diag is not None:
        ff.error = diag.message
        return ff
    try:
        text = data.decode("utf-8")
        nb = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        ff.error = f"not a readable notebook: {e}"
        return ff
    ff.data, ff.old, ff.new = data, text, text
    dump = _notebook_dumper(nb, text)
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if cells is None and isinstance(nb, dict) and isinstance(nb.get("worksheets"), list) and nb["worksheets"]:
        cells = nb["worksheets"][0].get("cells") if isinstance(nb["worksheets"][0], dict) else None
    if dump is None or not isinstance(cells, list):
        ff.error = "the notebook's JSON layout is not one fix can write back unchanged; not rewritten"
        return ff
    aliases: dict = {}  # cells share one namespace: an import in any code cell counts
    for c in cells:
        src = c.get("source", c.get("input")) if isinstance(c, dict) and c.get("cell_type", "code") == "code" else None
        masked = mask_cell("".join(src) if isinstance(src, list) else src) if isinstance(src, (str, list)) else None
        if masked is not None:
            try:
                aliases.update({k: v for k, v in _module_aliases(cst.parse_module(masked[0])).items()
                                if k not in aliases})
            except Exception:  # a cell libcst cannot parse just contributes nothing
                pass
    by_cell: dict = {}
    for f in findings:
        by_cell.setdefault(f.cell, []).append(f)
    for i, fs in sorted(by_cell.items(), key=lambda kv: -1 if kv[0] is None else kv[0]):
        cell = cells[i] if isinstance(i, int) and 0 <= i < len(cells) else None
        key = "source" if isinstance(cell, dict) and "source" in cell else "input"
        src = cell.get(key) if isinstance(cell, dict) and cell.get("cell_type", "code") == "code" else None
        as_list = isinstance(src, list)
        if as_list and all(isinstance(x, str) for x in src):
            src = "".join(src)
        masked = mask_cell(src) if isinstance(src, str) else None
        if masked is None:
            ff.left.extend((f, "not a Python code cell fix can edit") for f in fs)
            continue
        code, kept = masked
        new, applied, left, error = fix_text(code, rel, fs, engine, style, cell=i, aliases=aliases)
        ff.left.extend(left)
        if error:
            ff.left.extend((f, error) for f in fs)
            continue
        restored = unmask_cell(new, kept)
        if restored is None:
            ff.left.extend((f, "the cell's magic lines could not be kept; not rewritten") for f in fs)
            continue
        if applied:
            cell[key] = restored.splitlines(keepends=True) if as_list else restored
            ff.applied.extend(applied)
    if ff.applied:
        ff.new = dump(nb)
    return ff


EDITORS: dict[str, Callable] = {"python": _fix_python, "notebook": _fix_notebook}


# -- the libcst side ------------------------------------------------------------------

def rewrite_source(text: str, targets: list[Target], known_aliases: Optional[dict] = None):
    """Apply the chosen rewrites to `text` -> (new text, applied findings, [(finding, reason)])."""
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    aliases = {**(known_aliases or {}), **_module_aliases(module)}
    needed: set[str] = set()
    rw = _Rewriter(targets, aliases, needed)
    new_module = wrapper.visit(rw)
    missing = sorted(m for m in needed if m not in aliases)
    if missing:
        new_module = _add_imports(new_module, missing)
    applied = [t.finding for t in targets if id(t) in rw.done]
    unfit = "not a single literal or call fix can edit (e.g. implicitly concatenated strings)"
    left = [(t.finding, rw.why.get(id(t), unfit)) for t in targets if id(t) not in rw.done]
    return new_module.code, applied, left


def _module_aliases(module) -> dict[str, str]:
    """Top-level `import M` / `import M.sub` / `import M as X`: module -> the name to use."""
    plain: dict[str, str] = {}
    renamed: dict[str, str] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not isinstance(small, cst.Import):
                continue
            for alias in small.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None:
                    renamed.setdefault(dotted, alias.asname.name.value)
                else:
                    root = dotted.split(".")[0]
                    plain[root] = root
    return {**renamed, **plain}


def _dotted(node) -> str:
    if isinstance(node, cst.Name):
        return node.value
    return f"{_dotted(node.value)}.{node.attr.value}"


def _add_imports(module, names):
    """Insert `import M` after the leading docstring/imports block (never before __future__)."""
    body = list(module.body)
    at = 0
    for i, stmt in enumerate(body):
        if isinstance(stmt, cst.SimpleStatementLine) and all(
                isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body):
            at = i + 1
        elif i == 0 and isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
                isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value,
                                                                  (cst.SimpleString, cst.ConcatenatedString)):
            at = 1
        else:
            break
    new = [cst.SimpleStatementLine(body=[cst.Import(names=[cst.ImportAlias(name=cst.Name(n))])]) for n in names]
    return module.with_changes(body=body[:at] + new + body[at:])


class _Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, targets, aliases, needed):
        super().__init__()
        self.aliases, self.needed = aliases, needed
        self.strings: dict = {}
        self.calls: dict = {}
        self.callees: dict = {}
        self.done: set = set()
        self.why: dict = {}
        for t in targets:
            f = t.finding
            key = (f.line, f.column - 1, f.end_line, f.end_column - 1)
            if t.rewrite.action == "replace-string":
                self.strings.setdefault(key, []).append(t)
            elif t.rewrite.action == "replace-call" and type(t.hit.node) is not ast.Call:
                self.callees.setdefault(key, []).append(t)
            else:
                self.calls.setdefault(key, []).append(t)

    def span(self, node):
        r = self.get_metadata(PositionProvider, node)
        return (r.start.line, r.start.column, r.end.line, r.end.column)

    # Expressions from the catalogue: their free names are modules, written the way
    # this file imports them (`import torch as th` -> th.autocast); missing ones are imported.
    def expr(self, src: str, rw: Rewrite):
        return self._modules(cst.parse_expression(src), rw)

    def arg(self, src: str, rw: Rewrite):
        return self._modules(cst.parse_expression(f"f({src})").args[0], rw)

    def _modules(self, node, rw: Rewrite):
        self.needed.update(rw.modules)
        rename = {m: self.aliases[m] for m in rw.modules if self.aliases.get(m, m) != m}
        if rename:
            node = node.visit(_RenameRoots(rename))
        return node

    def leave_SimpleString(self, orig, upd):
        ts = self.strings.get(self.span(orig))
        if not ts:
            return upd
        t = ts[0]
        rw = t.rewrite
        prefix, quote = upd.prefix, upd.quote
        raw = upd.value[len(prefix) + len(quote):-len(quote)]
        parts = split_device(raw, rw.from_)
        if parts is None or "b" in prefix.lower():
            for x in ts:
                self.why[id(x)] = "the literal is written with escapes; left as is"
            return upd
        if rw.to is not None:
            new = upd.with_changes(value=f"{prefix}{quote}{rw.to}{raw[len(rw.from_):]}{quote}")
        else:
            src = rw.expr if parts[1] is None else rw.indexed_expr.replace("{index}", parts[1])
            new = self.expr(src, rw)
            if upd.lpar:
                new = new.with_changes(lpar=upd.lpar, rpar=upd.rpar)
        for x in ts:
            self.done.add(id(x))
        return new

    def leave_Call(self, orig, upd):
        for t in self.calls.get(self.span(orig), ()):
            upd = self._call(t, upd)
        for t in self.callees.get(self.span(orig.func), ()):
            upd = self._call(t, upd)
        return upd

    def _call(self, t, call):
        rw = t.rewrite
        a = rw.action
        if a == "set-arg":
            value = self.expr(rw.expr, rw)
            args = list(call.args)
            for i, arg in enumerate(args):
                if arg.keyword is not None and arg.keyword.value == rw.name:
                    args[i] = arg.with_changes(value=value)
                    break
            else:
                positional = [i for i, arg in enumerate(args) if arg.keyword is None and not arg.star]
                if rw.position is not None and rw.position < len(positional) and \
                        not any(arg.star for arg in args[:positional[rw.position] + 1]):
                    i = positional[rw.position]
                    args[i] = args[i].with_changes(value=value)
                else:
                    call = _append_arg(call, self.arg(f"{rw.name}={rw.expr}", rw))
                    args = None
            if args is not None:
                call = call.with_changes(args=args)
        elif a == "drop-arg":
            call = _drop_arg(call, rw.name)
        elif a == "replace-method":
            call = call.with_changes(func=call.func.with_changes(attr=cst.Name(rw.to)))
            for src in reversed(rw.args):
                call = _prepend_arg(call, self.arg(src, rw))
        elif a == "replace-call":
            call = call.with_changes(func=self.expr(rw.to, rw))
            for src in rw.args:
                call = _append_arg(call, self.arg(src, rw))
        self.done.add(id(t))
        return call


class _RenameRoots(cst.CSTTransformer):
    """`torch.x.y` -> `th.x.y`: renames only the leftmost name of attribute chains."""

    def __init__(self, rename: dict):
        super().__init__()
        self.rename = rename

    def leave_Attribute(self, orig, upd):
        v = upd.value
        if isinstance(v, cst.Name) and v.value in self.rename:
            return upd.with_changes(value=v.with_changes(value=self.rename[v.value]))
        return upd


def _clean_ws(ws):
    """A separator like `ws` without its comment: same line break and indentation, or one space."""
    if isinstance(ws, cst.ParenthesizedWhitespace):
        return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=(), indent=ws.indent,
                                           last_line=ws.last_line)
    return cst.SimpleWhitespace(" ")


def _separator(call):
    args = call.args
    if len(args) >= 2 and isinstance(args[-2].comma, cst.Comma):
        return _clean_ws(args[-2].comma.whitespace_after)
    return _clean_ws(call.whitespace_before_args)


def _append_arg(call, new):
    args = list(call.args)
    if not args:
        return call.with_changes(args=[new])
    last = args[-1]
    sep = _separator(call)
    if isinstance(last.comma, cst.Comma):  # trailing comma: the new argument goes after it, keeping the layout
        closing = last.comma.whitespace_after
        if isinstance(closing, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
            last = last.with_changes(comma=last.comma.with_changes(
                whitespace_after=closing.with_changes(indent=sep.indent, last_line=sep.last_line)))
            new = new.with_changes(comma=cst.Comma(whitespace_after=cst.ParenthesizedWhitespace(
                first_line=cst.TrailingWhitespace(), empty_lines=(), indent=closing.indent,
                last_line=closing.last_line)))
        else:
            new = new.with_changes(comma=last.comma)
            last = last.with_changes(comma=cst.Comma(whitespace_after=sep))
    else:
        closing = last.whitespace_after_arg
        if isinstance(closing, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
            # `a  # note\n)`: the note stays on a's line; the new argument gets its own line
            last = last.with_changes(comma=cst.Comma(whitespace_after=closing.with_changes(
                indent=sep.indent, last_line=sep.last_line)), whitespace_after_arg=cst.SimpleWhitespace(""))
            new = new.with_changes(whitespace_after_arg=cst.ParenthesizedWhitespace(
                first_line=cst.TrailingWhitespace(), empty_lines=(), indent=closing.indent,
                last_line=closing.last_line))
        else:
            new = new.with_changes(whitespace_after_arg=closing)
            last = last.with_changes(comma=cst.Comma(whitespace_after=sep),
                                     whitespace_after_arg=cst.SimpleWhitespace(""))
    return call.with_changes(args=args[:-1] + [last, new])


def _prepend_arg(call, new):
    args = list(call.args)
    if args:
        new = new.with_changes(comma=cst.Comma(whitespace_after=_clean_ws(call.whitespace_before_args)))
    return call.with_changes(args=[new] + args)


def _drop_arg(call, name):
    args = list(call.args)
    idx = next((i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == name), None)
    if idx is None:
        return call
    removed = args.pop(idx)
    if idx == len(args) and args:  # it was the last one: the previous argument takes over its ending
        prev = args[-1]
        closing = removed.comma.whitespace_after if isinstance(removed.comma, cst.Comma) \
            else removed.whitespace_after_arg
        pc = prev.comma
        if isinstance(closing, cst.ParenthesizedWhitespace):
            ws = pc.whitespace_after
            ws = ws.with_changes(indent=closing.indent, last_line=closing.last_line) \
                if isinstance(ws, cst.ParenthesizedWhitespace) else closing
            prev = prev.with_changes(comma=pc.with_changes(whitespace_after=ws))
        elif isinstance(removed.comma, cst.Comma):
            prev = prev.with_changes(comma=pc.with_changes(whitespace_after=closing))
        else:
            prev = prev.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=closing)
        args[-1] = prev
    return call.with_changes(args=args)


# -- output and writing ---------------------------------------------------------------

def unified_diff(old: str, new: str, rel: str) -> str:
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    out = []
    for line in difflib.unified_diff(a, b, fromfile=f"a/{rel}", tofile=f"b/{rel}"):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\r\n") + "\n")
            continue
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def write_fix(ff: FileFix, before_replace: Optional[Callable[[Path], None]] = None) -> str:
    """Write one planned file atomically; returns "" or why it was skipped.

    The file is re-read just before the rename: if its bytes differ from the ones
    the rewrite was computed from, it is left alone.
    """
    if not ff.changed:
        return ""
    target = Path(os.path.realpath(ff.path))  # through a symlink: replace the file, not the link
    try:
        read_only = not os.access(target, os.W_OK) or not os.stat(target).st_mode & 0o222
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    if read_only:  # also for root, who could write it: a read-only mode says "do not edit"
        return "the file is read-only; not written"
    try:
        payload = ff.new.encode(ff.encoding)
    except (UnicodeEncodeError, LookupError) as e:
        return f"cannot encode the result as {ff.encoding}: {e}"
    try:
        st = os.stat(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".trnready-fix", dir=target.parent)
    except OSError as e:
        return f"cannot write: {e.strerror or e}"
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, st.st_mode & 0o7777)
        if before_replace is not None:
            before_replace(target)
        with open(target, "rb") as fh:
            now = fh.read()
        if hashlib.sha256(now).digest() != hashlib.sha256(ff.data).digest():
            os.unlink(tmp)
            return "changed on disk since it was read; not written (run fix again)"
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            return f"cannot write: {e.strerror or e}"
        raise
    ff.written = True
    return ""


# -- the command ---------------------------------------------------------------------

def run_cli(paths, config: Config, write: bool, unsafe: bool, style: str, out=None, err=None) -> int:
    """`trnready fix`: the diff (or the writes) on `out`, notes and the summary on `err`."""
    import sys

    from .reporters.text import safe

    out = out or sys.stdout
    err = err or sys.stderr
    p = plan(paths, config, style=style, unsafe=unsafe)
    tty = hasattr(out, "isatty") and out.isatty()
    failed = 0
    for ff in p.files:
        if ff.error:
            failed += 1
            err.write(f"{safe(ff.rel)}: not fixed: {safe(ff.error)}\n")
            continue
        for f, reason in ff.left:
            err.write(f"{safe(ff.rel)}:{f.line}:{f.column}: {f.rule} not rewritten: {reason}\n")
        if not ff.changed:
            continue
        if not write:
            # Escape control characters only for a terminal: a redirected diff must stay a valid patch.
            out.write(safe_diff(ff.diff()) if tty else ff.diff())
            continue
        problem = write_fix(ff)
        if problem:
            failed += 1
            err.write(f"{safe(ff.rel)}: skipped: {problem}\n")
        else:
            n = len(ff.applied)
            out.write(f"fixed {safe(ff.rel)} ({n} change{'s' if n != 1 else ''})\n")
    for rel, reason in p.unsupported:
        err.write(f"{safe(rel)}: not fixed: {reason}\n")
    out.flush()
    changed = p.changed
    done = [f for f in changed if f.written] if write else changed
    n, files = sum(len(f.applied) for f in done), len(done)
    what = f"{n} fix{'es' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}"
    if not changed:
        err.write("Nothing to fix.\n")
    elif write:
        err.write(f"Applied {what}" + (f"; {failed} file(s) skipped" if failed else "") + ".\n")
    else:
        err.write(f"Would apply {what}; run `trnready fix --write` to apply.\n")
    if p.report.diagnostics:
        n_diag = len(p.report.diagnostics)
        err.write(f"{n_diag} file(s) could not be scanned and were left as they are (details: `trnready scan`).\n")
    if p.unsafe_skipped:
        err.write(f"{p.unsafe_skipped} more fixable with --unsafe (medium confidence: check the diff).\n")
    if failed:
        return 1
    return 1 if changed and not write else 0


def safe_diff(diff: str) -> str:
    """Diff lines may carry terminal control characters from the source; neutralise them."""
    from .reporters.text import safe

    return "".join(safe(line[:-1]) + "\n" if line.endswith("\n") else safe(line) for line in diff.splitlines(True))
