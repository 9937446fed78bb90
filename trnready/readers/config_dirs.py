"""Folders named like config folders: where a YAML/JSON file with one training key, or a Python module of
assignments, is a training config (readers/configs.py, readers/python_configs.py, project/config_keys.py).
A leaf module, so that the project steps can ask without importing a reader."""
from __future__ import annotations

CONFIG_DIRS = frozenset({"configs", "config", "conf", "recipes", "recipe", "hparams", "experiments", "exps",
                         "accelerate_configs", "deepspeed_configs", "ds_configs", "training_configs"})


def in_config_dir(rel: str) -> bool:
    """The file sits in a folder named like a config folder (configs/, config_hub/, ds_configs/, ...)."""
    return in_config_dir_parts(rel.lower().split("/"))


def in_config_dir_parts(parts: list) -> bool:
    return any(p in CONFIG_DIRS or "config" in p for p in parts[:-1])
