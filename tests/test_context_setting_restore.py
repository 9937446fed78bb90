"""setting-restore: putting a saved setting back, or a reset paired with a setter, is not a new setting."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "Inductor or Triton compiler options: `torch._inductor.config`"
FLAG = "cuDNN / CUDA backend flag: `torch.backends.cudnn.{}`"


def test_restores_are_silent_other_writes_in_finally_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "setting_restore", "--select", "TRN113") == [
        # context.py: lines 24-25 reset what set_flags (19-20) sets; line 26 has no setter
        ("context.py", 19, 5, "TRN113", MSG, False),
        ("context.py", 26, 5, "TRN113", MSG, False),
        # lines 5 and 14 read the setting; line 10 restores the saved value
        ("tuning.py", 6, 5, "TRN113", MSG, False),
        ("tuning.py", 18, 9, "TRN113", MSG, False),  # a new value, not the saved one
    ]


def test_exit_puts_back_what_enter_saved():
    assert scan_findings(CONTEXT_FIXTURES / "setting_restore", "--select", "TRN261") == [
        ("context.py", 12, 9, "TRN261", FLAG.format("benchmark"), False),  # __enter__ sets the chosen value
        # line 15: __exit__ writes back self._cudnn_benchmark, read from the flag in __enter__
        ("context.py", 30, 5, "TRN261", FLAG.format("deterministic"), False),  # a reset with no setter
        ("context.py", 34, 5, "TRN261", FLAG.format("allow_tf32"), False),
        ("context.py", 38, 5, "TRN261", FLAG.format("allow_tf32"), False),  # the name does not start with a reset word
    ]



def test_a_value_saved_from_a_namesake_setting_is_put_back_to_the_pair():
    # tf32_pair.py: line 5 saves the matmul TF32 switch, lines 6-7 turn both off (one finding per function, line 7
    # its occurrence), lines 9-10 write the saved value back to both and are no place of it; line 15 writes a
    # parameter of another function and stays
    import json

    from conftest import run_cli

    proc = run_cli("scan", str(CONTEXT_FIXTURES / "setting_restore_pair"), "--format", "json", "--no-cache",
                   "--select", "TRN261")
    got = [(f["line"], f["column"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(6, 5, "TRN261", [7]), (15, 5, "TRN261", [])]
