"""Python sources: pair each finding with the scanner's node, choose its rewrite, edit with libcst."""
from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from pathlib import Path
from typing import Optional

with warnings.catch_warnings():  # libcst 1.0 imports a metadata provider that warns about mypy_extensions
    warnings.simplefilter("ignore", DeprecationWarning)
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

from ..config import Config
from ..match import Engine
from ..model import Finding
from ..readers.python import _column, findings_from_hits, hits_for_tree, parse
from ..read import decode_python
from ..rewrite import ImportNames, Rewrite, choice_calls, choose, split_device
from .model import FileFix, Target
from ..astwalk import walk


def fix_python(path: Path, rel: str, findings: list[Finding], engine: Engine, config: Config,
                style: str) -> FileFix:
    ff, data = FileFix.read(path, rel, config.max_file_size)
    if data is None:
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
    if getattr(tree, "trnready_python2", False):  # scanned line for line, but not Python 3: nothing to rewrite
        return text, [], [(f, "Python 2 code (print statements): port it to Python 3 first") for f in findings], ""
    left: list = []
    targets = _targets(tree, text, rel, findings, engine, left, cell)
    if not targets:
        return text, [], left, ""
    parents = {child: node for node in walk(tree) for child in ast.iter_child_nodes(node)}
    names = ImportNames(tree)
    rules = engine.catalogue.by_id()
    chosen = []
    for t in targets:
        t.rewrite = choose(rules[t.finding.rule].rewrites, t.hit.node, t.hit.qualname, style, parents, names)
        if t.rewrite is None:
            left.append((t.finding, f"no {style}-style rewrite fits this code"))
            continue
        if t.rewrite.action == "replace-choice":
            t.condition_calls = choice_calls(t.rewrite, t.hit.node, parents, names) or []
        chosen.append(t)
    if not chosen:
        return text, [], left, ""
    try:
        new, applied, not_done = rewrite_source(text, tree, chosen, parents, aliases)
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
    hits = hits_for_tree(tree, engine, rel)
    lines = text.splitlines()
    local = {(f.rule, f.line, f.column, f.fingerprint): f
             for f in findings_from_hits(hits, lines, rel, cell=cell, tree=tree)}
    by_pos: dict = {}
    for h in hits:
        node = h.node
        line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
        by_pos.setdefault((h.rule.id, node.lineno, _column(line, node.col_offset)), h)
    # A notebook's scan numbers repeats of identical code across all its cells (readers/notebook.py), this one
    # cell alone: a copy in a later cell has another repeat index here, so it is paired by place and line text.
    at_place = {(g.rule, g.line, g.column): g for g in local.values()} if cell is not None else {}
    out = []
    for f in findings:
        key = (f.rule, f.line, f.column, f.fingerprint)
        mine = local.get(key)
        if mine is None:
            same = at_place.get((f.rule, f.line, f.column))
            mine = same if same is not None and same.snippet == f.snippet else None
        if mine is None:
            left.append((f, "the file changed since it was scanned"))
            continue
        out.append(Target(mine, by_pos[(f.rule, f.line, f.column)]))
    return out



# -- the libcst side ------------------------------------------------------------------

class _Text:
    """Maps ast positions (1-based line, UTF-8 byte column) to offsets in the text.

    Lines are counted the way the Python tokenizer counts them (\n, \r\n, \r), not with
    str.splitlines, which also breaks at form feeds and other separators."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def line(self, n: int) -> str:
        a = self.starts[n - 1]
        b = self.starts[n] if n < len(self.starts) else len(self.text)
        return self.text[a:b]

    def column(self, n: int, byte_col: int) -> int:
        line = self.line(n)
        return byte_col if line.isascii() else len(line.encode("utf-8")[:byte_col].decode("utf-8", "ignore"))

    def start(self, node) -> tuple[int, int]:
        return node.lineno, self.column(node.lineno, node.col_offset)

    def end(self, node) -> tuple[int, int]:
        return node.end_lineno, self.column(node.end_lineno, node.end_col_offset)

    def offset(self, pos: tuple[int, int]) -> int:
        return self.starts[pos[0] - 1] + pos[1]


_NEWLINE = re.compile(r"\r\n|\r|\n")
_OPEN = "("  # a segment is parsed as `(segment)`: any expression, on any number of lines, parses so


def _top_expression(node, parents: dict):
    """The outermost expression that holds `node` inside its statement (None if `node` is no expression)."""
    if not isinstance(node, ast.expr):
        return None
    top = node
    current = parents.get(node)
    while current is not None and not isinstance(current, (ast.stmt, ast.mod)):
        if isinstance(current, ast.expr):
            top = current
        current = parents.get(current)
    return top


def rewrite_source(text: str, tree: ast.Module, targets: list[Target], parents: dict,
                   known_aliases: Optional[dict] = None):
    """Apply the chosen rewrites to `text` -> (new text, applied findings, [(finding, reason)]).

    libcst sees only the expressions that hold a target (each parsed on its own as
    `(expression)`), never the whole file: parsing a file and computing positions for
    every node of it cost seconds per large file, and no rewrite reaches outside the
    statement it edits. Missing imports are inserted as text after the leading imports."""
    src = _Text(text)
    aliases = {**(known_aliases or {}), **module_aliases(tree)}
    needed: set[str] = set()
    groups: dict = {}
    left: list = []
    skipped: set = set()
    for t in targets:
        top = _top_expression(t.hit.node, parents)
        if top is None:
            left.append((t.finding, "not an expression fix can edit"))
            skipped.add(id(t))
            continue
        groups.setdefault(id(top), (top, []))[1].append(t)
    edits = []
    done: set = set()
    why: dict = {}
    for top, group in groups.values():
        first, last = src.start(top), src.end(top)
        segment = text[src.offset(first):src.offset(last)]

        def relative(pos, first=first):
            """A file position -> its position in `(segment)` (libcst: 1-based line, 0-based column)."""
            line, col = pos
            return (line - first[0] + 1, col - first[1] + len(_OPEN) if line == first[0] else col)

        def key(node, relative=relative):
            return (*relative(src.start(node)), *relative(src.end(node)))

        module = cst.parse_module(f"{_OPEN}{segment})")
        wanted: set = set()
        rw = _Rewriter(group, key, aliases, wanted)
        code = MetadataWrapper(module, unsafe_skip_copy=True).visit(rw).code
        if not (code.startswith(_OPEN) and code.endswith(")")):
            raise ValueError("a rewritten expression lost its enclosing parentheses")
        if set(rw.conditions) - rw.conditions_done or any(t.condition_calls and id(t) not in rw.done for t in group):
            # The device literal alone would still be chosen by a CUDA check: all or nothing.
            for t in group:
                why[id(t)] = "the condition choosing the device could not be rewritten with it; left as is"
            continue
        needed |= wanted
        edits.append((src.offset(first), src.offset(last), code[len(_OPEN):-1]))
        done |= rw.done
        why.update(rw.why)
    missing = sorted(m for m in needed if m not in aliases)
    if missing:
        edits.append(_import_edit(src, tree, missing))
    new = text
    for a, b, s in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new = new[:a] + s + new[b:]
    applied = [t.finding for t in targets if id(t) in done]
    unfit = "not a single literal or call fix can edit (e.g. implicitly concatenated strings)"
    left += [(t.finding, why.get(id(t), unfit)) for t in targets if id(t) not in done | skipped]
    return new, applied, left


def _import_edit(src: _Text, tree: ast.Module, names: list[str]):
    """`import M` lines after the leading docstring/imports block (never before __future__), as an edit."""
    body = tree.body
    # A physical line counts as an import line only if every statement on it is an import.
    other_lines = {s.lineno for s in body if type(s) not in (ast.Import, ast.ImportFrom)}
    after = None
    for i, stmt in enumerate(body):
        if type(stmt) in (ast.Import, ast.ImportFrom) and stmt.lineno not in other_lines \
                and stmt.end_lineno not in other_lines:
            after = stmt.end_lineno
        elif i == 0 and type(stmt) is ast.Expr and type(stmt.value) is ast.Constant \
                and type(stmt.value.value) is str and sum(s.lineno <= stmt.end_lineno for s in body) == 1:
            after = stmt.end_lineno
        else:
            break
    first = next(iter(_NEWLINE.findall(src.text)), "\n")
    if after is None:
        stmt = body[0]
        line = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])
        newline = _NEWLINE.search(src.line(line))
        lines = "".join(f"import {n}{newline.group(0) if newline else first}" for n in names)
        return src.starts[line - 1], src.starts[line - 1], lines
    end_line = src.line(after)
    newline = _NEWLINE.search(end_line)
    at = src.starts[after - 1] + len(end_line)
    if newline is None:  # the file ends on that line without a line break
        return at, at, "".join(f"{first}import {n}" for n in names)
    return at, at, "".join(f"import {n}{newline.group(0)}" for n in names)


class _Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, targets, key, aliases, needed):
        super().__init__()
        self.aliases, self.needed = aliases, needed
        self.strings: dict = {}
        self.calls: dict = {}
        self.callees: dict = {}
        self.done: set = set()
        self.why: dict = {}
        self.conditions: dict = {}  # callee span -> (new dotted name, rewrite): calls in a device choice
        self.conditions_done: set = set()
        for t in targets:
            k = key(t.hit.node)
            if t.rewrite.action in ("replace-string", "replace-choice"):
                self.strings.setdefault(k, []).append(t)
                for callee, new_name in t.condition_calls:
                    self.conditions[key(callee)] = (new_name, t.rewrite)
            elif t.rewrite.action == "replace-call" and type(t.hit.node) is not ast.Call:
                self.callees.setdefault(k, []).append(t)
            else:
                self.calls.setdefault(k, []).append(t)

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
        callee = self.span(orig.func)
        for t in self.callees.get(callee, ()):
            upd = self._call(t, upd)
        if callee in self.conditions:  # the same new name as a replace-call on it would give
            new_name, rw = self.conditions[callee]
            upd = upd.with_changes(func=self.expr(new_name, rw))
            self.conditions_done.add(callee)
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



def module_aliases(tree: ast.Module) -> dict[str, str]:
    """Top-level `import M` / `import M.sub` / `import M as X`: module -> the name to use."""
    plain: dict[str, str] = {}
    renamed: dict[str, str] = {}
    for stmt in tree.body:
        if type(stmt) is not ast.Import:
            continue
        for alias in stmt.names:
            if alias.asname is not None:
                renamed.setdefault(alias.name, alias.asname)
            else:
                root = alias.name.split(".")[0]
                plain[root] = root
    return {**renamed, **plain}


def module_aliases_of(text: str) -> dict[str, str]:
    """`module_aliases` of a source text; {} when it does not parse."""
    tree, diag = parse(text, "<cell>")
    return {} if tree is None else module_aliases(tree)
