"""no-launcher: a backend in a runner configuration whose launcher is 'none' is never used."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_backends_beside_no_launcher_are_dropped():
    found = sorted((f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "no_launcher") if f[3] == "TRN271")
    assert found == [
        ("configs.py", 5, "TRN271"),  # a launcher that starts processes
        ("configs.py", 9, "TRN271"),  # no launcher written here: the command line may set one
    ]


def test_registered_as_a_drop_for_keywords():
    p = context.get("no-launcher")
    assert p.effect == "drop" and p.kinds == ("keyword",)
