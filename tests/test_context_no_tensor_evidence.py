"""no-tensor-evidence: plain .unique() is reported only on a value a torch function made."""
from conftest import CONTEXT_FIXTURES, scan_findings

UNIQUE = "Operation whose output shape depends on the data: `unique`"


def test_unique_needs_a_torch_receiver():
    # frame["label"].unique() (pandas), np.asarray(...).unique() and src.unique() (unknown) stay silent
    assert scan_findings(CONTEXT_FIXTURES / "no_tensor_evidence") == [
        ("uniq.py", 7, 13, "TRN104", UNIQUE, False),  # both = torch.cat(...); both.unique()
        ("uniq.py", 8, 14, "TRN104", UNIQUE, False),  # torch.tensor(..., device=...).unique()
    ]
