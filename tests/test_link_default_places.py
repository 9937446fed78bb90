"""A default reaching a library call through helpers of its file (`init_dist(backend="nccl")` -> `_init_dist_pytorch`
/ `_init_dist_slurm` -> `dist.init_process_group(backend=backend)`): the finding stays at the default, and each
library call of the file it reaches is a place of it (link._with_library_places)."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "default_places"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return json.loads(proc.stdout)["findings"]


def test_each_library_call_the_default_reaches_is_a_place():
    found = [f for f in _findings() if f["rule"] == "TRN271"]
    # train.py's top-level `init_dist("pytorch")` relies on the default: reported at the call as well, as a call
    # inside a function always was (a script without functions records its calls since session 31)
    assert [(f["path"], f["line"]) for f in found] == [("dist_utils.py", 6), ("train.py", 3)]
    assert [(o["line"], o["column"]) for o in found[0]["occurrences"]] == [(17, 5), (22, 5)]


def test_a_default_of_a_supported_backend_has_no_finding_and_no_places():
    # init_cpu_group(backend="gloo") -> _start -> init_process_group: gloo runs on Neuron hosts
    assert not [f for f in _findings() if f["line"] in (25, 30)]
