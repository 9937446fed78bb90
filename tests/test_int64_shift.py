"""`operator = ["int64-wide-shift"]`: shifts by 32 or more on int64 tensors (TRN131), and their look-alikes."""
import json

from conftest import FIXTURES, REPO, run_cli, scan_findings

MSG = "Bit shift by 32 or more on an int64 tensor: the result needs the upper 32 bits"


def test_wide_shifts_on_int64_tensors_and_not_their_look_alikes():
    proc = run_cli("scan", FIXTURES / "int64_shift", "--format", "json", "--no-cache")
    report = [f for f in json.loads(proc.stdout)["findings"] if f["path"] == "pack.py" and f["rule"] == "TRN131"]
    got = [(f["line"], f["column"], f["message"], f.get("occurrences")) for f in report]
    # a shift by 8 of an int64 tensor, a shift of a tensor of unknown width (split of an int32 view)
    # and Python integer arithmetic (1 << 40) are not reported
    assert got == [(6, 13, MSG, [{"line": 9, "column": 11, "rule": "TRN131"}]),  # split[0].to(torch.int64) << 32
                   # (line 9, keys >> 40 with keys = torch.zeros(dtype=torch.long), is two statements later: a run)
                   (14, 15, MSG, None)]  # ids << 33, ids = torch.tensor(...).long()


def test_a_wide_shift_of_a_value_made_by_torch_is_int64_and_python_ints_and_casts_are_not():
    got = [f for f in scan_findings(FIXTURES / "int64_shift") if f[0] == "torch_made.py" and f[3] == "TRN131"]
    # (sent << 32) with sent = torch.div(...) + torch.index_select(...): integer results of torch are int64;
    # len(items) << 32, a shift by 8 of an int32 view, an .int() cast and 1 << 40 are not reported
    assert got == [("torch_made.py", 7, 13, "TRN131", MSG, False)]


def test_operator_shapes_are_validated(tmp_path):
    cat = tmp_path / "c.toml"
    cat.write_text((REPO / "blockers.toml").read_text().replace('operator = ["int64-wide-shift"]',
                                                                 'operator = ["int64-shift"]'))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "unknown operator shape 'int64-shift'" in proc.stderr and "TRN131" in proc.stderr
