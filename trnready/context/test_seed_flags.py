"""test-seed-flags: cuDNN determinism flags in the seed block of test code that names no device."""
from __future__ import annotations

import ast
import fnmatch

from .base import enclosing_function, imported_name, predicate
from .cpu_unit_test import _evidence
from .neuron_guarded import never_test
from .seeds_every_device import _seeded_scopes
from ..scope import classify

# CUDA's own seeders: the seed block calls them beside torch.manual_seed; they name CUDA without placing anything.
_CUDA_SEEDS = ("torch.cuda.manual_seed", "torch.cuda.manual_seed_all", "torch.cuda.seed", "torch.cuda.seed_all")


def _seed_call(ctx, st, globs) -> bool:
    if type(st) is not ast.Expr or type(st.value) is not ast.Call:
        return False
    name = imported_name(ctx, st.value.func)[0]
    return bool(name) and (name in _CUDA_SEEDS or any(fnmatch.fnmatchcase(name, g) for g in globs))


def _names_a_device(ctx, fn) -> bool:
    """The function places or names a device outside its seed calls (cpu-unit-test's evidence: `.cuda()`,
    `device=...`, a `device` name, "cuda"); an arm under a CUDA check that moves nothing is not read."""
    globs = tuple(ctx.values.get("seed-every-device-calls", ()))
    never = never_test(ctx)
    stack = list(fn.body)
    while stack:
        st = stack.pop()
        if _seed_call(ctx, st, globs):
            continue
        if type(st) is ast.If and never is not None and never(st.test):
            # `if torch.cuda.is_available(): torch.cuda.manual_seed_all(seed)`: read like cpu-unit-test does
            if _evidence(st, never=never):
                return True
            continue
        if type(st) in (ast.If, ast.For, ast.While, ast.With, ast.Try):
            if _evidence_outside_blocks(st):
                return True
            for field in ("body", "orelse", "finalbody"):
                stack.extend(getattr(st, field, None) or [])
            for h in getattr(st, "handlers", None) or []:
                stack.extend(h.body)
            continue
        if _evidence(st, never=never):
            return True
    return any(_evidence(a) for a in fn.args.args + fn.args.kwonlyargs)


def _evidence_outside_blocks(st) -> bool:
    """The statement's own expressions (its test, iterator, context managers) name a device."""
    parts = [getattr(st, "test", None), getattr(st, "iter", None)] + [i.context_expr for i in getattr(st, "items", ())]
    return any(p is not None and _evidence(p) for p in parts)


@predicate("test-seed-flags", kinds=("reference",), effect="guard")
def test_seed_flags(ctx, hit) -> bool:
    """A cuDNN flag set in a function of test code (scope `test`) that also seeds every device's generator
    (`seed-every-device-calls`: `torch.manual_seed`, `seed_everything`) and names no device anywhere else: the
    reproducibility block of a CPU unit test or of a test suite's seed helper (`def setup_seed(seed): random.seed(seed);
    torch.manual_seed(seed); torch.cuda.manual_seed_all(seed); torch.backends.cudnn.deterministic = True`). The
    flag is a no-op on a CPU, where such a test runs on every machine; the seed it needs is set. Module-level flags
    and a function that moves tensors (`.cuda()`, `device=...`) stay: that test may run on the device. Used by
    TRN261."""
    if not ctx.path or classify(ctx.path) != "test":
        return False
    fn = enclosing_function(ctx, hit.node)
    if fn is None:
        return False
    if id(fn) not in ctx.fact("seeds-every-device:scopes", _seeded_scopes):
        return False
    key = "test-seed-flags:%d" % id(fn)
    if key not in ctx.memo:
        ctx.memo[key] = not _names_a_device(ctx, fn)
    return ctx.memo[key]
