"""A device pick under a flag: `is_cuda = torch.cuda.is_available()` bound once, then `if is_cuda: device = "cuda"`.

The check is written where the flag is bound, so the pick's value (guarded, as its arm is) is listed as a place of
that binding's finding, as it is at a check written in the `if` itself (postprocess_picks.flag_checks)."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "flag_picks"


def _findings(name):
    proc = run_cli("scan", FIXTURE / name, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return json.loads(proc.stdout)["findings"]


def test_a_pick_under_a_flag_is_listed_at_the_flag_binding():
    found = {(f["line"], f["rule"]): f for f in _findings("device.py")}
    check = found[(3, "TRN243")]
    assert not check["guarded"]
    # the "cuda" assigned (line 9) and the torch.device("cuda") returned (line 19) under `if is_cuda_available:`
    assert [(o["line"], o["rule"]) for o in check["occurrences"]] == [(9, "TRN242"), (19, "TRN242")]
    assert (9, "TRN242") not in found and (19, "TRN242") not in found


def test_other_code_under_the_flag_stays_guarded():
    found = {(f["line"], f["rule"]): f for f in _findings("device.py")}
    assert found[(25, "TRN243")]["guarded"]  # torch.cuda.synchronize() is no pick: it never runs on Neuron


def test_a_flag_bound_twice_is_no_known_check():
    found = {(f["line"], f["rule"]): f for f in _findings("rebound.py")}
    assert found[(9, "TRN242")]["guarded"]  # which binding the `if` reads is unknown: the pick stays as it was
    assert not found[(3, "TRN243")].get("occurrences")


def test_a_conditional_expression_under_a_flag_is_listed_at_the_flag_binding():
    found = {(f["line"], f["rule"]): f for f in _findings("tensor_type.py")}
    check = found[(3, "TRN243")]
    assert not check["guarded"]
    # `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`: on Trainium the flag is False and the
    # expression picks CPU tensors, so it is a place of the flag's finding (line 4 re-reads the same check)
    # a device string picked the same way (line 8) joins them: one check, its picks listed at it
    assert [(o["line"], o["column"], o["rule"]) for o in check["occurrences"]] == \
        [(4, 11, "TRN243"), (7, 10, "TRN243"), (8, 10, "TRN242")]
    assert (7, "TRN243") not in found and (8, "TRN242") not in found


def test_a_conditional_device_string_on_a_flag_takes_the_flag_check_in(tmp_path):
    # guacamol's generators: `cuda_available = torch.cuda.is_available()` then `device = "cuda" if cuda_available
    # else "cpu"` on the next line is one pick written over two statements: one finding, at the pick (where
    # `trnready fix` rewrites both), with the check as its place; as the same pick written on one line is
    (tmp_path / "gen.py").write_text(
        "import torch\n\n\nclass Gen:\n    def generate(self, n):\n"
        "        cuda_available = torch.cuda.is_available()\n"
        "        device = \"cuda\" if cuda_available else \"cpu\"\n"
        "        return torch.zeros(n).to(device)\n\n\n"
        "def inline(n):\n    return torch.zeros(n).to(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n")
    (tmp_path / "run.py").write_text("from gen import Gen, inline\n\nGen().generate(3)\ninline(3)\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    got = [(f["line"], f["column"], f["rule"], [(o["line"], o["column"], o["rule"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(7, 18, "TRN242", [(6, 26, "TRN243")]), (12, 30, "TRN242", [(12, 40, "TRN243")])]


def test_a_conditional_expression_that_is_no_pick_stays_as_it_was():
    found = {(f["line"], f["rule"]): f for f in _findings("tensor_type.py")}
    # both operands name a CUDA type: the test (a parameter, not a CUDA check) chooses between two CUDA layouts
    assert not found[(16, "TRN243")]["guarded"]
    # a flag bound twice: which binding the expression reads is unknown
    assert not found[(20, "TRN243")]["guarded"]
