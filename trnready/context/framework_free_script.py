"""framework-free-script: a Python 2 program of its own that imports no deep-learning framework."""
from __future__ import annotations

import ast
import sys

from .base import PYTHON_KINDS, predicate

# the Python 3 standard library; Python 2's own modules (cPickle, urllib2) are listed in [context.values]
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


def _runs_as_program(ctx) -> bool:
    """A `if __name__ == "__main__":` block at the top level, or a read of `sys.argv` anywhere."""
    for st in ctx.tree.body:
        if type(st) is ast.If and type(st.test) is ast.Compare and any(
                type(n) is ast.Name and n.id == "__name__" for n in (st.test.left, *st.test.comparators)):
            return True
    return any(n.attr == "argv" and type(n.value) is ast.Name and n.value.id == "sys"
               for n in ctx.nodes(ast.Attribute))


def _host_program(ctx) -> bool:
    def compute(c) -> bool:
        if c.tree is None or c.path.endswith(("__init__.py", ".ipynb")) or not _runs_as_program(c):
            return False
        allowed = _STDLIB | frozenset(c.values.get("python2-stdlib-modules", ())) \
            | frozenset(c.values.get("host-script-modules", ()))
        if any(a.name.split(".")[0] not in allowed for n in c.nodes(ast.Import) for a in n.names):
            return False
        # a relative import is a module of the project, which may import PyTorch
        return all(not n.level and (n.module or "").split(".")[0] in allowed for n in c.nodes(ast.ImportFrom))
    return ctx.fact("framework-free-script", compute)


@predicate("framework-free-script", kinds=PYTHON_KINDS, effect="guard")
def framework_free_script(ctx, hit) -> bool:
    """The module is a program of its own (a `__main__` block or a read of `sys.argv`; not a package's
    `__init__.py`) whose every import is of the standard library (Python 3's, or Python 2's own modules of
    `python2-stdlib-modules`: `cPickle`, `urllib2`) or of `host-script-modules` (NumPy, pandas, NLTK, ...), with no
    relative import: it imports no deep-learning framework and no module of the project that might. Such a Python 2
    script (a crowdsourcing CSV builder, a corpus filter run under its own `anaconda2` by a shell script) runs in an
    interpreter of its own, never in the process TorchNeuron runs; porting it to Python 3 is no part of the move.
    fresh79: 20 of the 21 Python 2 findings in clarification_question_generation_pytorch were such scripts, judged
    wrong; fresh75 had four more (host conversion scripts of a preprocessing pipeline). Used by TRN324, as a guard:
    the module still needs Python 2 wherever it runs."""
    return _host_program(ctx)
