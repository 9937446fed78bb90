"""Small readings of syntax shared by the summary and the callers record (no import of either)."""
from __future__ import annotations

import ast

MAX_ITEMS = 400  # per list of a summary: memory stays flat however large the module


def literal_source(node) -> str | None:
    """Source of a literal value (str, number, bool, None, or a tuple/list of them), else None."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return repr(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return repr(-node.operand.value)
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) <= 16:
        parts = [literal_source(e) for e in node.elts]
        if all(p is not None for p in parts):
            inner = ", ".join(p for p in parts if p is not None) \
                + ("," if len(parts) == 1 and isinstance(node, ast.Tuple) else "")
            return f"({inner})" if isinstance(node, ast.Tuple) else f"[{inner}]"
    return None


def dotted(node) -> str | None:
    # Runs for the callee and every argument of every call in the project: exact type tests, and a
    # plain name (the commonest argument) answered without building a list.
    t = type(node)
    if t is _Name:
        return node.id
    if t is not _Attribute:
        return None
    parts = []
    while t is _Attribute:
        parts.append(node.attr)
        node = node.value
        t = type(node)
    if t is _Name:
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


_Name, _Attribute = ast.Name, ast.Attribute


def _raises(stmts: list) -> bool:
    """The block ends by raising, in every arm of a closing if/else (`else: raise NotImplementedError(...)`)."""
    if not stmts:
        return False
    last = stmts[-1]
    if type(last) is ast.Raise:
        return True
    return type(last) is ast.If and _raises(last.body) and _raises(last.orelse)


def unconditional_nodes(tree: ast.Module) -> list:
    """The nodes of the tree outside any `if` arm whose other arm goes on without raising: code a build reaches
    whatever the machine (`if cuda: extension = CUDAExtension` / `else: raise ...`), not one choice of two
    (`if cuda: extension = CUDAExtension` with CppExtension kept otherwise builds on the CPU too)."""
    out: list = []
    stack: list = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if type(node) is ast.If:
            if _raises(node.orelse):
                stack.extend(node.body)
            if _raises(node.body):
                stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def parsed_once(trees: dict, rel: str, text: str):
    """The syntax tree of `text`, parsed at most once per file into `trees` (rel -> tree, None when it does not
    parse): report steps that go back to the code of some findings share one parse per file."""
    if rel not in trees:
        import ast

        try:
            trees[rel] = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            trees[rel] = None
    return trees[rel]

