"""framework-free-script: a Python 2 program of its own importing only the standard library and host libraries."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

XRANGE = "Python 2 module (a name Python 3 removed): `builtins.xrange`"


def test_standalone_python2_host_scripts_are_guarded_others_stay():
    # the fixtures use Python 2 names Python 3 still parses (xrange, cPickle): every context fixture is parsed
    assert scan_findings(CONTEXT_FIXTURES / "framework_free_script", "--show-guarded") == [
        ("src/filter_ids.py", 2, 1, "TRN324", "Python 2 module (a module only Python 2 has): `cPickle`", True),
        ("src/helpers.py", 6, 14, "TRN324", XRANGE, False),  # no program of its own: an importer may run it
        ("src/prepare.py", 6, 14, "TRN324", XRANGE, False),  # imports `utility`, which may import PyTorch
        ("src/read_results.py", 10, 14, "TRN324", XRANGE, True),  # argparse, csv, NumPy: a host program
        ("src/train.py", 7, 18, "TRN324", XRANGE, False),  # imports torch
    ]


def test_registered_as_a_guard():
    assert context.get("framework-free-script").effect == "guard"
