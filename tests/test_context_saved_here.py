"""saved-here: torch.load of a file the same function (or module top level) wrote earlier: torch.save, a saving
helper given the same path, or a fresh temporary directory."""
from conftest import CONTEXT_FIXTURES, scan_findings

LOAD = "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks"


def test_round_trips_are_silent_loads_of_files_made_elsewhere_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "saved_here") == [
        # roundtrip() saves before it loads (line 6): silent
        ("ckpt_io.py", 10, 12, "TRN351", LOAD, False),  # restore(): nothing saved here
        ("ckpt_io.py", 14, 13, "TRN351", LOAD, False),  # the save comes after the load
        # writer() saves, but a module-level load does not follow a save inside some function
        ("ckpt_io.py", 23, 8, "TRN351", LOAD, False),
        # tests/test_roundtrip.py: the test writes the file it loads
        # written_here.py: a saving helper given the same path, a fresh temporary directory (made, pytest's or a
        # fixture's) are silent; another path, a reader, a fixed directory, a data fixture and an archive unpacked into a
        # temporary directory stay reported
        ("written_here.py", 24, 12, "TRN351", LOAD, False),
        ("written_here.py", 29, 12, "TRN351", LOAD, False),
        ("written_here.py", 46, 12, "TRN351", LOAD, False),
        # line 65, a test's reference file read from a data directory, is no model's weights (loads-no-weights)
        ("written_here.py", 71, 12, "TRN351", LOAD, False),  # an archive unpacked into the fresh directory
    ]


def test_a_load_of_what_an_early_stopping_object_saved_in_the_same_run_is_silent():
    # train(): early_stopping(vali_loss, self.model, path) saves the best weights under `path`, then
    # torch.load(path + '/' + 'checkpoint.pth') reads them back (18, dropped). test() loads a checkpoint of an earlier
    # run (23) and resume() loads from another directory than the one handed to the stopper (29): both stay.
    assert scan_findings(CONTEXT_FIXTURES / "saved_early_stop") == [
        ("exp_main.py", 23, 40, "TRN351", LOAD, False),
        ("exp_main.py", 29, 36, "TRN351", LOAD, False),
    ]
