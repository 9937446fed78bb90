"""numpy-operand: a mask selection on a NumPy array the file declares or converts to compiles nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
NONZERO = "Operation whose output shape depends on the data: `nonzero`"


def test_declared_and_converted_arrays_are_dropped():
    # centers: both operands annotated np.ndarray; typed: npt.NDArray (its `keep.nonzero()` stays: keep is
    # unknown); decode: names bound by to_numpy(...) after a tensor op; still_tensors: a torch annotation;
    # rebound: the NumPy parameter becomes a device tensor first; branch: converted in one arm only; rescored:
    # an array times an array is one (dropped), an array times an unknown parameter may be a tensor (kept)
    assert scan_findings(CONTEXT_FIXTURES / "numpy_operand", "--select", "TRN104") == [
        ("arrays.py", 16, 38, "TRN104", NONZERO, False),
        ("arrays.py", 27, 12, "TRN104", MASK, False),
        ("arrays.py", 32, 12, "TRN104", MASK, False),
        ("arrays.py", 38, 12, "TRN104", MASK, False),
        ("arrays.py", 45, 31, "TRN104", MASK, False),
        # IOUEval.fast_hist (line 50): `a[k].astype(int)` makes `a` an array, so `a[k]` and `b[k]` (its mask is a
        # comparison of `a`) are dropped; tensor_hist casts nothing: its selections stay, one item with the
        # mask selection on the line (the bincount, given a minlength, is one length whenever the values stay below it)
        ("arrays.py", 57, 36, "TRN104", MASK, False),
        # hop_sites: `(np.asarray(a) - np.asarray(b)).nonzero()` dropped; the tensor difference stays
        ("arrays.py", 63, 13, "TRN104", NONZERO, False),
        # instances: scikit-image's and OpenCV's results (`host-array-modules`) are arrays, dropped; the tensor stays
        ("arrays.py", 74, 30, "TRN104", MASK, False),
        # split: rows of a pandas DataFrame (`host-array-modules`) are dropped; the tensor built from them stays
        ("arrays.py", 83, 18, "TRN104", MASK, False),
    ]
