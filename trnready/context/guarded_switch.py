"""guarded-switch: what a test module's function runs only with a switch parameter on, when every call turning the
switch on is code Neuron never runs (the spans are found by neuron-guarded's walker: `_Spans._called_switches`)."""
from __future__ import annotations

from .base import predicate
from .neuron_guarded import _spans


@predicate("guarded-switch", effect="guard")
def guarded_switch(ctx, hit) -> bool:
    """In a module the test runner runs, the code a function (a helper, a test method, a test) runs only when one
    of its parameters with a false default (`def test_log_prob(self, cuda=False)`, `def _demo_inputs(shape,
    cuda=False)`) is on: the arms of `if cuda:` and the values of `x if cuda else y`, when every call of the function
    in the file passes a false literal, leaves the default, hands on a switch that is off in the calling function
    (`make_data(cuda=cuda)`), or is code `neuron-guarded` guards (inside `if torch.cuda.is_available():`, after `if
    not torch.cuda.is_available(): return`, a test skipped without CUDA). The test runner calls a test with its
    defaults, so a test with no call in the file counts; any other function needs one. On Neuron every run has the
    switch off, so the block's `.cuda()` and the `torch.device("cuda")` picked by it run for nobody; the check around
    the calls is what the port changes. A function handed on by name (a fixture, a callback, `partial(f,
    cuda=True)`), defined twice with other switches, called with `*args` / `**kwargs` where the switch may be, or
    whose parameter it binds again is left alone; no other module imports a test module's functions."""
    if not ctx.path or ctx.tree is None:
        return False
    spans = ctx.fact("neuron-guarded", _spans)
    if spans is None or not spans.switch_spans:
        return False
    node = hit.node
    pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    return any(s <= pos < e for s, e, _ in spans.switch_spans)
