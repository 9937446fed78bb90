"""unique-to-host: distinct values turned into a Python list at once size no device tensor."""
from conftest import scan_findings

SRC = '''import torch


def feature_ids(mask: torch.Tensor):
    ids = torch.unique(mask).tolist()
    seen = set(mask.unique(sorted=True).cpu().tolist())
    return ids, seen


def kept(mask: torch.Tensor, x: torch.Tensor):
    ids = torch.unique(mask)
    inv = torch.unique(mask, return_inverse=True)
    rows = torch.nonzero(mask).tolist()
    return x[ids], inv, rows
'''


def test_unique_values_read_back_as_a_list_are_no_finding(tmp_path):
    (tmp_path / "ids.py").write_text(SRC)
    found = sorted(f[1] for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN104")
    # 5 and 6 become Python lists at once; 11 indexes x, 12 returns the inverse, 13 is nonzero
    assert found == [11, 12, 13]


COUNTED = '''import torch


def stats(labels: torch.Tensor, feats: torch.Tensor):
    n = torch.unique(labels).numel()
    m = len(labels.unique())
    for label in labels.unique():
        print(feats[labels == label].mean())
    means = [feats[labels == c].mean() for c in torch.unique(labels)]
    ids = labels.unique()
    return n, m, means, feats[ids]
'''


def test_unique_values_counted_or_looped_over_stay_findings(tmp_path):
    (tmp_path / "stats.py").write_text(COUNTED)
    found = sorted(f[1] for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN104"
                   and "unique" in f[4])
    # counts (5, 6) and loops (7, 9) still compute the values on the device with a data-dependent size: kept (9's
    # unique folds into the line's mask finding); 10's values index the features
    assert found == [5, 6, 7, 10]
