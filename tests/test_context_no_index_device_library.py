"""no-index-device-library: GPU indices as a device are CUDA GPUs only for libraries that read them so."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

INDEX = "GPU index as the device of an Ultralytics run: `device` (read as CUDA GPUs)"


def test_ultralytics_gpu_indices_only():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "no_index_device_library") if f[3] == "TRN242"]
    # yolo_train.py: the option's default "0,1" (8) and `device=0` of the validation run (13); not "cpu", not the
    # audio card indices of a file that uses no such library
    assert [f[:4] for f in found] == [("yolo_train.py", 8, 45, "TRN242"), ("yolo_train.py", 13, 22, "TRN242")]
    assert all(f[4] == INDEX for f in found)


def test_registered_for_keyword_matchers():
    p = context.get("no-index-device-library")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "Ultralytics" in p.doc
