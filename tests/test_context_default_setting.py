"""default-setting: a backend flag written with PyTorch's own default changes nothing; other writes stay."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_default_writes_are_dropped_and_other_values_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "default_setting")]
    # benchmark.py 6-8: benchmark=False, enabled=True, matmul.allow_tf32=False are the defaults;
    # toggle.py: the file sets benchmark=True elsewhere, so `= False` undoes it and stays
    # determinism.py: defaults beside a non-default flag in the same function (a determinism block) stay
    assert found == [
        ("benchmark.py", 12, "TRN261"),
        ("benchmark.py", 16, "TRN261"),
        ("determinism.py", 6, "TRN261"),
        ("determinism.py", 11, "TRN261"),
        ("toggle.py", 5, "TRN261"),
        ("toggle.py", 9, "TRN261"),
        ("train.py", 3, "TRN261"),  # at the top of a module: it follows the imports, which may set the flag
    ]


def test_registered_as_a_drop_on_references():
    p = context.get("default-setting")
    assert p.effect == "drop" and p.kinds == ("reference",)
