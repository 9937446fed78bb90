"""Python sources: pair each finding with the scanner's node, choose its rewrite, edit with libcst."""
from __future__ import annotations

import ast
import io
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
from ..pyscan import _column, findings_from_hits, hits_for_tree, parse
from ..read import decode_python, read_bytes
from ..rewrite import Rewrite, choose, split_device
from .model import FileFix, Target


def fix_python(path: Path, rel: str, findings: list[Finding], engine: Engine, config: Config,
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
