"""densified-at-once: a sparse tensor made dense in the expression that builds it on the host is no sparse tensor."""
import json

from conftest import CONTEXT_FIXTURES, run_cli


def test_sparse_matrices_read_into_dense_buffers_are_not_reported():
    # fresh58 class (MeshTransformer's SMPL joint regressor, saved in COO form and densified at once). Lines 9-10
    # build and densify on the host; line 11 keeps the sparse tensor, and line 12, built on a device first, is
    # its occurrence (one finding per run of statements). Line 16 densifies the result of a sparse operation
    # (`torch.sparse.sum`), not of a constructor: still a sparse item.
    proc = run_cli("scan", CONTEXT_FIXTURES / "densified_at_once", "--format", "json", "--no-cache", "--no-config")
    got = [(f["path"], f["line"], f["rule"], [o["line"] for o in f.get("occurrences") or ()])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [("regressor.py", 11, "TRN141", [12]), ("regressor.py", 16, "TRN141", [])]
