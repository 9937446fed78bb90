"""dtype-lookup-key: a dtype used only as the key of a per-dtype value makes no float64 tensor."""
import json

from conftest import CONTEXT_FIXTURES, run_cli


def test_dtype_keys_are_silent_dtypes_handed_to_factories_are_reported():
    proc = run_cli("scan", CONTEXT_FIXTURES / "dtype_lookup_key", "--format", "json", "--no-cache", "--exit-zero")
    found = [(f["path"], f["line"], [o["line"] for o in f.get("occurrences") or ()])
             for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN121"]
    # lines 3, 22-24: a dict key, the argument of a method that only compares it, a subscript, a `.get` key;
    # line 31 hands it to torch.zeros(dtype=...), line 40 to a function that also makes a tensor with it
    assert found == [("settings.py", 31, [40])]
