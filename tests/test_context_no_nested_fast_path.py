"""no-nested-fast-path: an encoder whose layer is not batch-first (or is pre-norm) never builds a NestedTensor."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MSG = ("nn.TransformerEncoder with the nested-tensor fast path enabled (the default): "
       "`torch.nn.TransformerEncoder`")


def test_layers_without_the_fast_path_are_dropped_and_look_alikes_stay():
    assert scan_findings(CONTEXT_FIXTURES / "no_nested_fast_path", "--show-guarded") == [
        # lines 6 (sequence-first layer) and 10 (pre-norm layer) are gone
        ("encoders.py", 18, 12, "TRN152", MSG, False),  # batch_first=True, post-norm: the fast path is on
        ("encoders.py", 22, 12, "TRN152", MSG, False),  # a layer passed in: unknown
        ("encoders.py", 26, 12, "TRN152", MSG, False),  # batch_first from a parameter: unknown
    ]


def test_registered_as_a_drop():
    assert context.get("no-nested-fast-path").effect == "drop"
