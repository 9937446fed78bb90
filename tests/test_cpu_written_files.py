"""Files the project writes only from programs that place nothing on a device (trnready/project/cpu_written_files.py)."""
import json

from conftest import FIXTURES, run_cli


def test_loads_of_files_only_host_programs_write_are_guarded():
    # Payload_gnn (fresh83): `prepare_data.py` builds the splits and statistics on the host and saves them;
    # `train.py` loads them without map_location (lines 10, 15: guarded). The best model is saved from the device
    # (line 24), `pretrained.pt` is written by nothing in the project (28), and `features.pt` is saved by a program
    # that moves its batches with `.cuda()` (32): those stay
    proc = run_cli("scan", FIXTURES / "cpu_written", "--format", "json", "--no-cache", "--show-guarded",
                   "--select", "TRN351")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("src/export.py", 5, 18, ""),
        ("src/train.py", 10, 12, "cpu-written-file"),
        ("src/train.py", 15, 12, "cpu-written-file"),
        ("src/train.py", 24, 12, ""),
        ("src/train.py", 28, 12, ""),
        ("src/train.py", 32, 12, ""),
        ("src/train.py", 36, 12, ""),  # `export.py` re-saves what it loaded without a map_location (fresh76)
    ]


def test_a_dtype_or_cpu_move_places_nothing():
    import ast

    from trnready.project.cpu_written_files import _places

    for text, placed in (("x.to(torch.float32)", False), ("x.to('cpu')", False), ("x.to(dtype=torch.half)", False),
                         ("x.to(device)", True), ("x.cuda()", True), ("torch.zeros(2, device=dev)", True),
                         ("torch.zeros(2, device='cpu')", False), ("torch.load(p)", True),
                         ("torch.load(p, map_location='cpu')", False)):
        assert _places(ast.parse(text), text) is placed, text
