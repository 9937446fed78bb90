"""neuron-guarded: a config switch read by key (`options["xla"]`, `cfg.get("use_tpu")`) is off on Neuron."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_keyed_xla_switches_guard_and_other_keys_do_not():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "xla_config_key_switch",
                                                             "--show-guarded")]
    # sharding.py: the arm past `if not options["xla"]: return ...` is guarded, the step under a key that names no
    # accelerator (`cfg["compile"]`) is kept; placing.py: under `cfg.get("use_tpu", False)`
    assert found == [
        ("placing.py", 3, "TRN221", True),
        ("sharding.py", 9, "TRN221", True),
        ("sharding.py", 16, "TRN221", False),
    ]
