"""type-test-only: a CUDA-op library imported only to name a class in isinstance / issubclass runs none of its ops."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_type_only_imports_are_dropped_and_other_uses_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "type_test_only")]
    # demo.py: RoIPool only in `not isinstance(m, RoIPool)`, ops only in a negated issubclass tuple
    assert found == [
        ("boxes.py", 1, "TRN296"),  # ops.nms is called too
        ("head.py", 1, "TRN296"),  # subclassed
        ("init.py", 1, "TRN296"),  # a positive test: the model holds the layer
        ("layers.py", 1, "TRN296"),  # constructed
        ("unused.py", 1, "TRN296"),  # no use: nothing shows it is only a type test
    ]


def test_registered_as_a_drop_on_imports():
    p = context.get("type-test-only")
    assert p.effect == "drop" and p.kinds == ("import",)
