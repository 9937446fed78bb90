"""Link-step places from the blind25 misses (branch rec28p): a helper moving its parameter with `.cuda()` called
through its package, and a module whose `try:` import of a built extension falls back to a JIT build of the same
CUDA sources (a kernel module: its importers' calls run the kernels)."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "rec28p_links"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def test_cuda_helper_called_through_its_package_is_placed_at_the_call():
    f = _findings()[("graphkit/utils/moving.py", 3, "TRN241")]
    assert ("graphkit/core/runner.py", 13) in [(e["path"], e["line"]) for e in f["elsewhere"]]


def test_calls_of_a_module_needing_the_built_extension_are_places_of_the_build():
    builds = [f for k, f in _findings().items() if k[0] == "geomlib/setup.py" and f["category"] == "custom-cuda-kernel"]
    places = {(e["path"], e["line"]) for f in builds for e in f.get("elsewhere", ())}
    assert ("geomlib/geomlib/ops.py", 6) in places  # the tried import
    assert {("models/encoder.py", 3), ("models/encoder.py", 12)} <= places  # the import and the call in forward


def test_a_helper_that_is_only_a_sparse_constructor_is_placed_at_its_calls():
    f = _findings()[("graphkit/utils/sparse.py", 3, "TRN141")]
    assert ("graphkit/layers.py", 9) in [(e["path"], e["line"]) for e in f["elsewhere"]]


def test_a_sparse_helper_called_in_a_dataset_class_is_no_place():
    f = _findings()[("graphkit/utils/sparse.py", 3, "TRN141")]
    assert "graphkit/datasets.py" not in [e["path"] for e in f["elsewhere"]]
