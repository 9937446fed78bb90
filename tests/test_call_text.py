"""project/call_text.call_text writes a call exactly as ast.unparse does (the summary keeps these texts and the
link step reports them, so a single changed character would change a finding)."""
import ast

import pytest

from conftest import REPO, FIXTURES
from trnready.project.call_text import call_text

SHAPES = [
    "f()",
    "torch.nn.functional.interpolate(x, size=(h, w), mode='bilinear', align_corners=False)",
    "f(*args, **kwargs)",
    "f(*a.b, *g(x), *(a or b), **(c or d), **e.f)",
    "f(u'text', b'raw', 'it\\'s', \"quote\\\"d\", 'tab\\t', '\\u00e9', 'ü')",
    "f(1.5, 1e400, -1, -2.0, 3j, 0x10, True, None, ..., 10**3)",
    "f(3 .real, (1).imag, 'a'.join(x), [1][0].y, (a + b).c, a[0].b)",
    "f(x)(y)(z=1)",
    "self.layers[0](q, k, v, key_padding_mask=m)",
    "(a or b)(x)",
    "(lambda x: x)(1)",
    "f(lambda x, *, y=1: x + y, key=lambda v: v[0])",
    "f(x for x in y)",
    "f((x for x in y), z)",
    "f((x := 1), y=(z := 2))",
    "f(a if c else b, k=a if c else b)",
    "f(f'{x!r:>{w}}', rf'\\d{y}')",
    "f(not a, -a, a and b, a < b < c, await_ := 1)",
    "f([1, 2], {'a': 1, **d}, {1, 2}, (1,), (), [*a], {**a})",
    "f(a[1:2, ::3], b[...], c[x, y])",
    "getattr(x, 'y')(*[1, 2])",
    "f(yield_ := g())",
]


@pytest.mark.parametrize("src", SHAPES)
def test_every_shape_is_written_as_ast_unparse_writes_it(src):
    tree = ast.parse(src, mode="eval")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert calls
    for node in calls:
        assert call_text(node) == ast.unparse(node)


def test_a_call_built_from_parts_is_written_as_ast_unparse_writes_it():
    # the summary writes `self.helper(...)` as `Class.helper(...)` by building the call from the old one's parts
    old = ast.parse("self.helper(x, mode='nearest', *rest)", mode="eval").body
    func = ast.Attribute(value=ast.Name(id="Model", ctx=ast.Load()), attr="helper", ctx=ast.Load())
    built = ast.Call(func=func, args=old.args, keywords=old.keywords)
    assert call_text(built) == ast.unparse(built) == "Model.helper(x, *rest, mode='nearest')"


@pytest.mark.parametrize("root", [REPO / "trnready", FIXTURES], ids=["package", "fixtures"])
def test_every_call_of_a_tree_is_written_as_ast_unparse_writes_it(root):
    compared = 0
    for path in sorted(root.rglob("*.py")):
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                assert call_text(node) == ast.unparse(node), f"{path}:{node.lineno}"
                compared += 1
    assert compared > 1000
