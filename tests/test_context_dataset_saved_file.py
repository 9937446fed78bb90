"""dataset-saved-file: a dataset reading back what its own processing saved needs no map_location."""
import json

from conftest import CONTEXT_FIXTURES, run_cli


def test_a_dataset_loading_its_own_processed_file_is_silent():
    proc = run_cli("scan", CONTEXT_FIXTURES / "dataset_saved_file", "--format", "json", "--no-cache", "--exit-zero")
    found = [(f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN351"]
    # line 15 reads what process() saved, line 24 the cache the other arm writes; line 36 reads a file the class
    # writes from a model moved to the GPU: a checkpoint. coco.py: line 11 reads the id list `_preprocess` saves
    # under its parameter `ids_file`, handed the same name; line 16 reads features `_extract` saved from the GPU
    assert found == [("coco.py", 16), ("datasets.py", 36)]
