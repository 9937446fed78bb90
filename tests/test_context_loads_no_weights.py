"""loads-no-weights: torch.load of statistics, splits or caches that nothing marks as a model's weights."""
from conftest import CONTEXT_FIXTURES, scan_findings

LOAD = "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks"


def test_loads_of_non_weight_files_are_silent_checkpoints_stay_reported():
    assert scan_findings(CONTEXT_FIXTURES / "loads_no_weights") == [
        # loaders.py: statistics (9), an index split (14), alignments (19) and a top-level feature cache (50) are
        # silent, the last although other functions of the module restore weights
        ("loaders.py", 24, 12, "TRN351", LOAD, False),  # named a checkpoint, handed to load_state_dict
        ("loaders.py", 29, 25, "TRN351", LOAD, False),  # handed to load_state_dict directly
        ("loaders.py", 33, 12, "TRN351", LOAD, False),  # returned: the caller decides what it is
        ("loaders.py", 37, 11, "TRN351", LOAD, False),  # assigned, then returned whole
        ("loaders.py", 42, 17, "TRN351", LOAD, False),  # the "model" key is read from it
        ("loaders.py", 46, 12, "TRN351", LOAD, False),  # a neutral name, but the function restores weights
        ("loaders.py", 54, 11, "TRN351", LOAD, False),  # its "state_dict" key is read later
        # loaders.py:60, `training_args.bin` (a pickled argparse Namespace, `argument-file-names`) is silent although
        # its path names a model directory and ends in .bin
        # trainer.py: the class saves a state dict to the same path (7); Lookup's ids (15) are silent
        ("trainer.py", 7, 22, "TRN351", LOAD, False),
    ]
