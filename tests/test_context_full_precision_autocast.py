"""full-precision-autocast: a CUDA autocast keeping float32 or float64 is reported for what the port does to it."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

KEEP = ("Full-precision region written with the CUDA autocast: a Neuron autocast around it would run it in bfloat16; "
        'write torch.autocast(device_type="neuron", enabled=False)')
GENERIC = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"


def test_full_precision_regions_get_their_own_message_float16_regions_the_generic_one():
    # vggsfm's geometry solvers: `with autocast(dtype=torch.double)` (imported from torch.cuda.amp) and
    # `torch.cuda.amp.autocast(dtype=torch.float32)` keep an SVD in full precision; the float16 region at line 16
    # is mixed precision and keeps the generic message (and the float64 dtype its own advisory)
    proc = run_cli("scan", CONTEXT_FIXTURES / "full_precision_autocast", "--format", "json", "--no-cache",
                   "--exit-zero")
    found = [(f["rule"], f["line"], f["column"], f["message"]) for f in json.loads(proc.stdout)["findings"]]
    assert found == [
        ("TRN251", 6, 10, KEEP),
        ("TRN121", 6, 25, "float64 or complex128 dtype: `torch.double`"),
        ("TRN251", 11, 10, KEEP),
        ("TRN251", 16, 10, GENERIC),
    ]
