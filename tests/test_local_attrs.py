"""An attribute the same function assigns just before a call reads it (`args.comm = "nccl"`, then
`init_process_group(backend=args.comm)`): trnready/local_attrs.py, through the real CLI."""
import json

from conftest import FIXTURES, run_cli

FOLLOWED = FIXTURES / "followed"


def findings(name):
    proc = run_cli("scan", FOLLOWED / name, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return {(f["line"], f["column"], f["rule"], tuple((o["line"], o["column"]) for o in f.get("occurrences", ())),
             f["message"]) for f in report["findings"]}


NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group`"
RESIZE = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"


def test_attribute_assigned_before_the_call_is_its_value():
    # the call is the finding; the assignment, the line to edit, is one of its places
    assert findings("attr_assigned_hit.py") == {
        (9, 5, "TRN271", ((7, 17),), NCCL),
        (16, 16, "TRN191", ((14, 22),), RESIZE),  # in the same branch, another attribute set in between
        (23, 15, "TRN191", ((21, 19),), RESIZE),  # a loop that does not write it again
    }


def test_attribute_written_again_or_elsewhere_stays_unknown():
    # overwritten, set in one arm only, handed to a function or a method of the object, the name rebound,
    # written again later in a loop, another object's attribute, read in an `except` after a try body that
    # calls out: none of these is certain, and nothing is reported
    assert findings("attr_assigned_lookalike.py") == set()
