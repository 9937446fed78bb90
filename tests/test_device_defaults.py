"""TRN242: the default a lookup gives a device setting (`cfg.get("device", "cuda")`) is a device string."""
from conftest import scan_findings

SOURCE = '''import os


def device_of(cfg):
    return cfg.get("device", "cuda")


def train_device_of(options):
    return options.pop("train_device", "cuda:0")


def others(cfg):
    env_device = os.environ.get("DEVICE", "cpu")
    n = cfg.get("devices", 1)
    name = cfg.get("device_name", "cuda")
    on_tpu = cfg.get("device", "cuda") == "xla"
    return env_device, n, name, on_tpu
'''


def test_the_default_of_a_device_lookup_is_a_device_string(tmp_path):
    (tmp_path / "cfg.py").write_text(SOURCE)
    # a "cpu" default and a count are no CUDA device; `device_name` is no device setting (its last word is `name`);
    # a default only compared with another device places nothing
    assert [(f[1], f[2], f[3]) for f in scan_findings(tmp_path, "--select", "TRN242")] == [
        (5, 30, "TRN242"), (9, 40, "TRN242")]
