"""other-platform-value: an environment variable only compared with / set to another platform's value."""
from __future__ import annotations

from .base import predicate


@predicate("other-platform-value", kinds=("env",))
def other_platform_value(ctx, hit) -> bool:
    """An environment variable that selects among platforms (PJRT_DEVICE) and is here only compared
    with, or set to, a value naming another platform: `os.environ.get("PJRT_DEVICE") == "TPU"`,
    `os.environ.setdefault("PJRT_DEVICE", "CPU")`. That is a check or setting for TPU/GPU/CPU, not
    Neuron configuration. The platform names are data: `other-platforms` in [context.values] of the
    catalogue (or the deprecated `unless-value` list of the matcher)."""
    vals = ctx.index.env_values.get(id(hit.node))
    if not vals:
        return False
    names = hit.matcher.unless_value or tuple(ctx.values.get("other-platforms", ()))
    return all(v.upper() in names for v in vals)
