"""hides-every-gpu: `CUDA_VISIBLE_DEVICES="" python x.py` runs a program on the CPU; it picks no GPU."""
from conftest import CONTEXT_FIXTURES, scan_findings

MSG = "CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER: `CUDA_VISIBLE_DEVICES`"


def test_hiding_every_gpu_is_silent_and_picking_gpus_stays():
    # lines 10-11 run a program with every GPU hidden (without the predicate line 10 is reported, one per
    # function); lines 4-6 hide them in the running process or a child's environment, which runs on the CPU on
    # a Trainium host as it is (session 42: readers judged in-process hiding a CPU run in five of six samples);
    # f"...='{rank}'", "0,1", "-10" (not -1), "0" and "1" pick devices
    assert scan_findings(CONTEXT_FIXTURES / "hides_every_gpu") == [
        ("run_cli.py", 15, 20, "TRN245", MSG, False),
        ("run_cli.py", 19, 20, "TRN245", MSG, False),
        ("run_cli.py", 23, 20, "TRN245", MSG, False),
        ("run_cli.py", 27, 16, "TRN245", MSG, False),
        ("run_cli.py", 31, 52, "TRN245", MSG, False)]
