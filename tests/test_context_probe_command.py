"""probe-command: an argv whose program only looks another program up or prints its name runs none."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

RUN = "nvidia-smi run by the program: `subprocess.run`"


def test_a_lookup_or_an_echo_is_silent_and_a_run_stays():
    # 5: nvidia-smi is the program; 9-11: `which` (also by its path) and `echo` only name it (without the predicate
    # each is reported: `matches` reads every element of the list); 15: the program is a parameter, not known to be
    # a probe; 19: `sudo nvidia-smi` runs it; 24: in a `try` whose `except FileNotFoundError:` copes with a missing
    # tool; 32: that handler raises again
    assert scan_findings(CONTEXT_FIXTURES / "probe_command") == [
        ("gpu_info.py", 5, 12, "TRN612", RUN, False),
        ("gpu_info.py", 15, 5, "TRN612", RUN, False),
        ("gpu_info.py", 19, 12, "TRN612", "nvidia-smi run by the program: `subprocess.check_output`", False),
        ("gpu_info.py", 32, 16, "TRN612", "nvidia-smi run by the program: `subprocess.check_output`", False),
    ]


def test_registered_as_a_drop_on_calls():
    p = context.get("probe-command")
    assert p.effect == "drop" and p.kinds == ("call",)
