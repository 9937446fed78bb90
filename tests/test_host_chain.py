"""A finding the link step reaches through project calls is host data code when its place and its final call both
lie in host data modules (trnready/project/report.py `_host_chain`, predicate host-data-code)."""
import json

from conftest import FIXTURES, run_cli

from trnready.context.host_data_code import host_module

VALUES = {"host-data-dirs": ["processors", "datasets"]}


def test_a_resize_mode_handed_down_a_video_processor_is_host_data():
    proc = run_cli("scan", FIXTURES / "host_chain", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"])
    # the frame transform's default and its caller's mode reach F.interpolate in processors/ on decoded frames; the
    # model head hands device logits to the same helper and stays
    assert got == [
        ("app/models/head.py", 5, "TRN191", ""),
        ("app/models/head.py", 5, "TRN241", ""),
        ("app/processors/frames.py", 5, "TRN191", "host-data-code"),
        ("app/processors/frames.py", 14, "TRN191", "host-data-code"),
    ]


def test_host_module_needs_the_path_and_no_move_to_a_device():
    assert host_module("pkg/processors/ops.py", "def f(x):\n    return x + 1\n", VALUES)
    assert not host_module("pkg/processors/ops.py", "def f(x):\n    return x.cuda()\n", VALUES)
    assert not host_module("pkg/models/ops.py", "def f(x):\n    return x + 1\n", VALUES)
