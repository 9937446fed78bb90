"""replaced-not-called: assigning over a torch.cuda API (a spoof, a restore) calls nothing; calls and flags stay."""
from conftest import CONTEXT_FIXTURES, scan_findings

API = "torch.cuda device, memory, stream or RNG API: `torch.cuda.{}`"
AMP = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"


def test_assignments_over_the_api_are_silent_calls_reads_and_flag_writes_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "replaced_not_called") == [
        # lines 7-10 assign over torch.cuda APIs (and del one); line 19 restores two of them from a tuple
        ("spoof.py", 15, 24, "TRN243", API.format("is_available"), False),  # read into the saved tuple
        ("spoof.py", 23, 5, "TRN243", API.format("synchronize"), False),
        # spoof.py:24:12 TRN243 folds into line 23 (a run of neighbouring statements)
        ("spoof.py", 25, 5, "TRN261", "cuDNN / CUDA backend flag: `torch.backends.cudnn.benchmark`", False),
        ("spoof.py", 27, 15, "TRN251", AMP, False),  # GradScaler(enabled=use_amp)
        ("spoof.py", 29, 10, "TRN253", 'autocast or custom_fwd / custom_bwd on the "cuda" device: `torch.autocast`',
         False),
        ("spoof.py", 31, 10, "TRN251", AMP, False),  # torch.cuda.amp.autocast(enabled=False) names the device
    ]
