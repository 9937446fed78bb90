"""no-tensor-evidence: plain .unique() is reported only on a value a torch function made."""
from conftest import CONTEXT_FIXTURES, scan_findings

UNIQUE = "Operation whose output shape depends on the data: `unique`"


def test_unique_needs_a_torch_receiver():
    # frame["label"].unique() (pandas), np.asarray(...).unique() and src.unique() (unknown) stay silent
    assert scan_findings(CONTEXT_FIXTURES / "no_tensor_evidence") == [
        ("uniq.py", 7, 13, "TRN104", UNIQUE, False),  # both = torch.cat(...); both.unique()
        ("uniq.py", 8, 14, "TRN104", UNIQUE, False),  # torch.tensor(..., device=...).unique()
    ]


def test_a_slice_over_several_axes_is_a_tensor(tmp_path):
    (tmp_path / "detect.py").write_text('''import torch


def per_class(det, frame, arr):
    for c in det[:, 5].unique():
        print(c)
    a = det[..., 0].unique()
    b = frame.loc[:, "label"].unique()
    c = frame["label"].unique()
    return a, b, c
''')
    # pandas takes a multi-axis slice only through .loc / .iloc; a one-key subscript may be a Series
    assert [(f[1], f[2]) for f in scan_findings(tmp_path)] == [(5, 14), (7, 9)]
