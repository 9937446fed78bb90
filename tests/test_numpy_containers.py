"""TRN104 boolean-mask indexing: a NumPy array found through the items of a container (`results[j] =
np.concatenate(...)`) or through a name rebound to a part of itself (`detections = detections[keep]`) is no
tensor (CenterNet's merge_outputs, fresh40)."""
from conftest import FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_numpy_items_and_self_rebinding_are_not_tensors():
    got = [(f[0], f[1], f[2], f[3]) for f in scan_findings(FIXTURES / "numpy_containers", "--show-guarded")
           if f[4] == MASK]
    # merge_outputs (11) and merge_flat (18, 20) index NumPy arrays; only the torch.cat container is reported. A
    # dict of mixed values: the item of the same key decides (spice_scores' `out["SPICE_" + k]`, 38, is NumPy; the
    # tensor item `out["a"]`, 45, is reported though another key holds an array; session 35)
    # A value `.numpy()` made is a NumPy array, and a parallel assignment binds each name to its own part
    # (demo_boxes, 52); the same unpacking of a model's output stays reported (device_boxes, 58).
    assert got == [("merge.py", 29, 22, "TRN104"), ("merge.py", 45, 12, "TRN104"), ("merge.py", 58, 12, "TRN104")]
