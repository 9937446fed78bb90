"""layout-branch: an operation only a sparse tensor has, inside the arm of a test of the tensor's layout."""
from conftest import scan_findings

SOURCE = '''import torch


def row_adagrad_step(grad, state):
    if grad.is_sparse:
        grad = grad.coalesce()
        state[grad._indices()[0]] += grad._values().pow(2).mean(1)
    return state


def width(t):
    return t.crow_indices().numel() if t.layout == torch.sparse_csr else t.shape[0]


def sparse_kron(a, b):
    a = a.coalesce()
    return a._indices(), b
'''
MSG = "Operation only a sparse tensor has: `.{}()` (the tensor it works on is sparse)"


def test_sparse_only_operations_in_a_layout_arm_are_silent(tmp_path):
    # row_adagrad_step and width only handle a sparse input they are given; sparse_kron works on sparse tensors
    # unconditionally (one finding per function: `_indices` on line 17 folds into line 16)
    (tmp_path / "sparse_ops.py").write_text(SOURCE)
    assert [(f[1], f[2], f[3], f[4]) for f in scan_findings(tmp_path, "--select", "TRN141")] == [
        (16, 9, "TRN141", MSG.format("coalesce"))]
