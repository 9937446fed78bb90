"""A mixed-precision switch set from a test of the CUDA device (`amp_on = device == "cuda"`, then
`torch.autocast("cuda", enabled=amp_on)`) is a place of the autocast or GradScaler finding: porting the call alone
leaves mixed precision off on Neuron (match.py `_switch_place`, `[context.values] device-switch-rules`)."""
import json

from conftest import FIXTURES, run_cli

AUTOCAST = 'autocast or custom_fwd / custom_bwd on the "cuda" device: `torch.amp.autocast`'
SCALER = 'torch.amp.GradScaler on the CUDA device (cuda given, or left to its default): `torch.amp.GradScaler`'


def test_a_switch_set_from_a_cuda_test_is_a_place_of_the_finding():
    proc = run_cli("scan", FIXTURES / "amp_switch", "--format", "json", "--no-cache", "--no-config")
    got = [(f["line"], f["column"], f["rule"], f["message"],
            [(o["line"], o["column"]) for o in f.get("occurrences", ())]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        (7, 10, "TRN253", AUTOCAST, [(6, 19)]),
        (13, 12, "TRN252", SCALER, [(12, 15)]),
        (18, 10, "TRN253", AUTOCAST, []),
        (25, 10, "TRN253", AUTOCAST, []),
    ]
