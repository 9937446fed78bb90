"""not-kept-module: TRN355 reports the torch.cuda module only where a class or a conditional pick keeps it."""
from conftest import CONTEXT_FIXTURES, scan_findings

KEPT = "The torch.cuda module is kept as a value; tensors made through it (`.FloatTensor`, `.LongTensor`) land on CUDA"


def test_the_module_kept_on_an_instance_or_picked_is_reported_at_the_assignment():
    # blind58 class (CodeBERT's copied Beam, `self.tt = torch.cuda`; blind57's `torch.cuda if cuda else torch`).
    # Not TRN355: `hasattr(torch.cuda, ...)` and `torch.cuda is None` (an argument, a comparison), and the plain
    # local alias, whose use the resolver reads as torch.cuda.FloatTensor (TRN243 there).
    got = [f for f in scan_findings(CONTEXT_FIXTURES / "not_kept_module", "--no-config")
           if f[3] in ("TRN355", "TRN243")]
    assert got == [
        ("beam.py", 7, 19, "TRN355", KEPT, False),
        ("beam.py", 14, 19, "TRN355", KEPT, False),
        ("beam.py", 25, 12, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.FloatTensor`", False),
    ]
