"""guarded-switch: a test helper's `cuda=False` switch turned on only from guarded code."""
from trnready import context


def test_registered_as_a_guard():
    p = context.get("guarded-switch")
    assert p.effect == "guard"
