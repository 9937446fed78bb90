"""attribute-probe: a getattr/hasattr probe of a module attribute the file also uses in full is no second finding."""
import json

from conftest import CONTEXT_FIXTURES, run_cli


def test_probes_with_a_use_beside_them_are_silent_others_stay():
    proc = run_cli("scan", CONTEXT_FIXTURES / "attribute_probe", "--format", "json", "--no-cache", "--exit-zero")
    found = [(f["rule"], f["line"], f["column"], [o["line"] for o in f.get("occurrences") or ()])
             for f in json.loads(proc.stdout)["findings"] if f["path"] == "probe.py"]
    # line 4 (`getattr(...) is not None`) and line 6 (`hasattr`) probe autocast and GradScaler, both used at lines
    # 12 and 14; line 7 probes custom_fwd, which nothing uses; line 8's getattr keeps the class, so it is a use
    assert found == [("TRN251", 7, 26, [8]), ("TRN251", 12, 10, []), ("TRN251", 14, 14, [])]


def test_a_version_probe_beside_the_device_neutral_use_is_silent():
    # neutral.py (timm's validate.py, copied into MambaVision, fresh60) probes torch.cuda.amp.autocast and then uses
    # torch.autocast(device_type=...): `device-neutral-homes` says torch is where the attribute lives for every device
    proc = run_cli("scan", CONTEXT_FIXTURES / "attribute_probe" / "neutral.py", "--format", "json", "--no-cache",
                   "--exit-zero")
    assert json.loads(proc.stdout)["findings"] == []
