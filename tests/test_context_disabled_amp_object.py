"""disabled-amp-object: GradScaler(enabled=False) is a pass-through; other flags and disabled autocast stay."""
from conftest import CONTEXT_FIXTURES, scan_findings

AMP = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"


def test_disabled_scalers_are_silent_other_scalers_and_autocast_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "disabled_amp_object") == [
        # lines 6 and 7 build scalers with the literal enabled=False
        ("train.py", 8, 13, "TRN251", AMP, False),  # enabled=use_amp may be True
        ("train.py", 9, 10, "TRN252",
         "torch.amp.GradScaler on the CUDA device (cuda given, or left to its default): `torch.amp.GradScaler`", False),
        ("train.py", 10, 10, "TRN251", AMP, False),  # a disabled CUDA autocast still names the device
        # line 18: enabled only when the device is CUDA, a scaler disabled on every Neuron machine
        ("train.py", 25, 23, "TRN251", AMP, False),  # a named switch (self.use_amp) stays: blind69's trainer
    ]
