"""config-device-set: a library's default config whose device the file sets itself or never uses."""
from __future__ import annotations

from .base import predicate


@predicate("config-device-set", kinds=("call",))
def config_device_set(ctx, hit) -> bool:
    """A library config built with its defaults (detectron2's `get_cfg()`, whose MODEL.DEVICE is "cuda") in a file
    that names a key of `[context.values] config-device-keys` (`cfg.MODEL.DEVICE = "cpu"`, `cfg.merge_from_list(
    ["MODEL.DEVICE", device])`): the file chooses the device itself, and that line is what a port edits (a "cuda"
    string there is its own finding). Also a file that names none of `config-device-builders` (`DefaultPredictor`,
    `DefaultTrainer`, `build_model`, `return cfg`: a helper handing the config on): its config only sets up a
    dataset, an anchor generator in a unit test or a visualiser, and the default device is never read. And the
    library's own repository (detectron2 scanned itself): the default is written in its defaults file, a "cuda"
    string reported there, and every `get_cfg()` of its scripts is that one item. Comments count too: the check
    errs on the side of silence. Holds when the file's text is unknown."""
    name = hit.qualname or hit.name
    if name and name.split(".", 1)[0] in ctx.project.own_packages:
        return True  # detectron2 itself: its defaults file's `MODEL.DEVICE = "cuda"` is the item, reported there
    text = getattr(ctx.tree, "trnready_text", None)
    if text is None:
        return True
    if any(key in text for key in ctx.values.get("config-device-keys", ())):
        return True
    return not any(word in text for word in ctx.values.get("config-device-builders", ()))
