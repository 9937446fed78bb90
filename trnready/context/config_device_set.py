"""config-device-set: the file names the config key that chooses the device of a library's default config."""
from __future__ import annotations

from .base import predicate


@predicate("config-device-set", kinds=("call",))
def config_device_set(ctx, hit) -> bool:
    """A library config built with its defaults (detectron2's `get_cfg()`, whose MODEL.DEVICE is "cuda") in a file
    that names a key of `[context.values] config-device-keys` (`cfg.MODEL.DEVICE = "cpu"`, `cfg.merge_from_list(
    ["MODEL.DEVICE", device])`): the file chooses the device itself, and that line is what a port edits (a "cuda"
    string there is its own finding). Comments count too: the check errs on the side of silence. Holds when the
    file's text is unknown."""
    text = getattr(ctx.tree, "trnready_text", None)
    if text is None:
        return True
    return any(key in text for key in ctx.values.get("config-device-keys", ()))
