"""encoder-trained-only: an encoder built in a script that trains and never evaluates never takes the fast path."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

NESTED = "nn.TransformerEncoder with the nested-tensor fast path enabled (the default): `torch.nn.TransformerEncoder`"


def test_training_only_scripts_are_silent():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "encoder_trained_only") if f[3] == "TRN152"]
    # silent: train_vq.py (backward and step, no eval, no no_grad); reported: the module that only builds the encoder
    # (its users may evaluate it) and the script that also evaluates under no_grad
    assert found == [
        ("model.py", 3, 11, "TRN152", NESTED, False),
        ("train_eval.py", 7, 12, "TRN152", NESTED, False),
    ]


def test_registered_for_call_matchers():
    p = context.get("encoder-trained-only")
    assert p.kinds == ("call",) and p.effect == "drop" and "fast path" in p.doc
