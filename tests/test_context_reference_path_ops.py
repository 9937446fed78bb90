"""reference-path-ops: mmcv.ops functions that run a pure-PyTorch reference off CUDA tie the code to no kernel."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_imports_of_reference_path_functions_only_are_dropped():
    proc = run_cli("scan", CONTEXT_FIXTURES / "reference_path_ops", "--format", "json", "--no-cache")
    found = [(f["path"], f["line"], f["column"], f["rule"], [o["line"] for o in f.get("occurrences", [])])
             for f in json.loads(proc.stdout)["findings"]]
    # lines 2 and 5 import filter2d / upsample2d / downsample2d only; line 6 adds a deformable convolution and
    # line 7 imports the whole module (one finding per library per file: a place of line 6, with the uses of the
    # names line 6 binds, bias_act and the deformable convolution, and of mmcv.ops.nms). plain_members.py imports
    # members with no compiled kernel at all (NAS-FPN's merge cells, the ONNX Runtime op-library lookup: fresh58);
    # deform_attn.py imports mmcv's pure-PyTorch multi-scale deformable attention, the path off CUDA (session 44)
    assert found == [("resample.py", 6, 1, "TRN296", [7, 15, 19, 20])]


def test_registered_as_a_drop_of_imports():
    p = context.get("reference-path-ops")
    assert p.effect == "drop" and p.kinds == ("import",)
