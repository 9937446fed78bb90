"""no-tensor-evidence: plain .unique() is reported only on a value a torch function made."""
from conftest import CONTEXT_FIXTURES, scan_findings

UNIQUE = "Operation whose output shape depends on the data: `unique`"


def test_unique_needs_a_torch_receiver():
    # frame["label"].unique() (a keyed column) and np.asarray(...).unique() stay silent; since session 48 a file
    # importing torch and no dataframe library calls `.unique()` on tensors, so src.unique() is reported
    assert scan_findings(CONTEXT_FIXTURES / "no_tensor_evidence") == [
        ("uniq.py", 7, 13, "TRN104", UNIQUE, False),  # both = torch.cat(...); both.unique()
        ("uniq.py", 8, 14, "TRN104", UNIQUE, False),  # torch.tensor(..., device=...).unique()
        ("uniq.py", 11, 13, "TRN104", UNIQUE, False),  # src.unique(): no pandas here, NumPy has no such method
    ]


def test_with_a_dataframe_library_imported_an_unknown_receiver_stays_silent(tmp_path):
    (tmp_path / "stats.py").write_text(
        "import pandas as pd\n"
        "import torch\n"
        "def count(src, table):\n"
        "    a = src.unique()\n"
        "    b = torch.cat([src, src]).unique()\n"
        "    return a, b\n")
    (tmp_path / "loss.py").write_text(
        "import torch\n"
        "def loss(inst, frame):\n"
        "    ids = inst.unique()\n"
        "    names = frame.labels.values.unique()\n"
        "    return ids[ids > 0], names\n")
    got = sorted((f[0], f[1]) for f in scan_findings(tmp_path) if f[3] == "TRN104")
    assert ("stats.py", 5) in got and ("stats.py", 4) not in got
    assert ("loss.py", 3) in got and ("loss.py", 4) not in got


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
