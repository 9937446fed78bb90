"""dataset-cache: a dataset class loading the file it saves itself needs no map_location."""
from conftest import FIXTURES, scan_findings
from trnready import context


def test_the_class_cache_is_dropped_and_other_loads_stay():
    found = [(f[1], f[3]) for f in scan_findings(FIXTURES / "accuracy" / "cuda-device" / "dataset_cache.py")]
    assert found == [(23, "TRN351"), (39, "TRN351")]


def test_registered_as_a_drop_for_calls():
    p = context.get("dataset-cache")
    assert p.effect == "drop" and p.kinds == ("call",)
