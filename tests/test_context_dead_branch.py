"""dead-branch: code behind a constant condition (`if False:`, a module flag only ever set False) is guarded;
flags set True anywhere, rebound, imported or compared stay undecided and their code stays reported."""
import json

import pytest

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

API = "torch.cuda device, memory, stream or RNG API: `torch.cuda.{}`"
DEAD = "dead-branch"


def _findings(name):
    proc = run_cli("scan", CONTEXT_FIXTURES / "dead_branch" / name, "--format", "json", "--no-cache",
                   "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["message"], f.get("guarded_by", ""))
            for f in json.loads(proc.stdout)["findings"]]


def test_constant_conditions_guard_the_branch_they_never_take():
    assert _findings("constants.py") == [
        (6, 5, "TRN243", API.format("synchronize"), DEAD),  # if False:
        (9, 5, "TRN243", API.format("empty_cache"), DEAD),  # if 0:
        (12, 5, "TRN243", API.format("ipc_collect"), DEAD),  # if None:
        (15, 5, "TRN243", API.format("synchronize"), DEAD),  # if not True:
        (18, 5, "TRN243", API.format("empty_cache"), DEAD),  # while False:
        (23, 5, "TRN243", API.format("ipc_collect"), DEAD),  # else of if True:
        (28, 5, "TRN243", API.format("synchronize"), DEAD),  # elif after if True:
        (31, 5, "TRN243", API.format("empty_cache"), DEAD),  # if False and ...:
        (33, 7, "TRN243", API.format("current_device"), DEAD),  # a if False else b
        (36, 5, "TRN243", API.format("synchronize"), ""),  # body of if True: runs
        (38, 25, "TRN243", API.format("current_device"), ""),  # the else arm of `0 if False else b` runs
        (41, 5, "TRN243", API.format("empty_cache"), ""),  # `print() or True` is true: the body runs
        (44, 5, "TRN243", API.format("ipc_collect"), ""),  # while True:
        (49, 18, "TRN243", API.format("synchronize"), DEAD),  # 0 and f(): f is never called
        (53, 18, "TRN243", API.format("synchronize"), ""),  # x and f()
    ]


def test_module_flags_only_ever_false_guard_their_branches():
    # A flag bound once (`USE_APEX = False`, `SYNC_DEBUG = 0`, `_HELPER: object = None`) is a switch a user edits
    # before a run (a benchmark's `save_profiles = False`): its code stays reported. A flag written False in every
    # arm that binds it was switched off on purpose.
    assert _findings("flags.py") == [
        (14, 5, "TRN243", API.format("synchronize"), ""),  # if USE_APEX: (bound once)
        (17, 5, "TRN243", API.format("empty_cache"), ""),  # if not USE_APEX: runs
        (19, 5, "TRN243", API.format("ipc_collect"), ""),
        (22, 5, "TRN243", API.format("synchronize"), ""),  # `USE_APEX is False`: comparisons decide nothing
        (28, 9, "TRN243", API.format("synchronize"), ""),  # SYNC_DEBUG = 0, bound once
        (30, 9, "TRN243", API.format("empty_cache"), DEAD),  # False in both arms of try/except
        (31, 12, "TRN243", API.format("current_device"), ""),  # `_HELPER: object = None`, bound once
    ]


@pytest.mark.parametrize("name,expected", [
    # `USE_SYNC = True` under an if, `HAS_FUSED = True` in the try arm
    ("set_true.py", [(16, 5, "TRN243", API.format("synchronize"), ""),
                     (19, 5, "TRN243", API.format("empty_cache"), "")]),
    # `global PROFILE` then `PROFILE = True`, a parameter VERBOSE, a flag imported from another module,
    # a loop target, `del`, `globals()["BY_NAME"] = True`
    ("rebound.py", [(18, 9, "TRN243", API.format("synchronize"), ""),
                    (20, 9, "TRN243", API.format("empty_cache"), ""),
                    (22, 9, "TRN243", API.format("ipc_collect"), ""),
                    (30, 5, "TRN243", API.format("synchronize"), ""),
                    (33, 5, "TRN243", API.format("empty_cache"), ""),
                    (43, 5, "TRN243", API.format("ipc_collect"), "")]),
    ("star.py", [(8, 5, "TRN243", API.format("synchronize"), "")]),  # `from settings import *` may bind it
    ("imported_twice.py", [(10, 5, "TRN243", API.format("synchronize"), "")]),  # also imported under its name
    # nanoGPT-style `exec(open("configurator.py").read())` overrides the defaults from the command line
    ("configured.py", [(8, 5, "TRN243", API.format("synchronize"), "")]),
    ("namespace.py", [(12, 9, "TRN243", API.format("synchronize"), "")]),  # globals().update(cfg)
])
def test_flags_bound_any_other_way_stay_undecided(name, expected):
    assert _findings(name) == expected


def test_guarded_findings_are_left_out_of_the_default_report():
    proc = run_cli("scan", CONTEXT_FIXTURES / "dead_branch" / "flags.py", "--format", "json", "--no-cache")
    assert [(f["line"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]] == [
        (14, False), (17, False), (19, False), (22, False), (28, False), (31, False)]


def test_registered_as_a_guard_for_every_python_kind():
    p = context.get("dead-branch")
    assert p.effect == "guard" and "import" in p.kinds and "call" in p.kinds and "reference" in p.kinds


def test_python_version_tests_are_constants_on_the_pythons_neuron_runs():
    # every removed module imported in the file is one finding (its other imports are places of it); the places
    # under a Python 2 arm are one guarded finding, the one a 3.13-only test guards is reported
    proc = run_cli("scan", CONTEXT_FIXTURES / "dead_branch" / "python_versions.py", "--format", "json", "--no-cache",
                   "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["rule"], f.get("guarded_by", ""), [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        # the else of torch._six.PY3; sys.version_info[0] < 3; the else of sys.version_info >= (3, 0);
        # sys.version_info.major == 2; six.PY2; PY2 imported from six; older than 3.12; the else of
        # sys.version_info[:2] >= (3, 8); sys.version_info[1] > 20 on no supported Python
        (10, "TRN321", DEAD, [13, 17, 19, 21, 23, 25, 31, 33]),
        # true on 3.13 and 3.14, false on 3.12: undecided
        (27, "TRN321", "", []),
    ]


def test_python2_names_and_dict_methods_under_a_python2_version_test_are_guarded(tmp_path):
    # Oscar's `_read_tsv`: `if sys.version_info[0] == 2: line = list(unicode(cell, 'utf-8') ...)` never runs on
    # 3.12-3.14; the same names outside such a test stay the module's Python 2 item
    (tmp_path / "tsv.py").write_text(
        "import csv\nimport sys\n\n\ndef read(path):\n    lines = []\n    for line in csv.reader(open(path)):\n"
        "        if sys.version_info[0] == 2:\n            line = list(unicode(cell, 'utf-8') for cell in line)\n"
        "            extra = {k: v for k, v in {}.iteritems()}\n        lines.append(line)\n    return lines\n\n\n"
        "def legacy(d):\n    return [unicode(k) for k in d.iterkeys()]\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    got = [(f["line"], f["column"], f["rule"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(9, 25, "TRN324", DEAD), (16, 13, "TRN324", None)]
