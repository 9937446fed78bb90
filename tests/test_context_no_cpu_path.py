"""neuron-guarded and `no-cpu-path-rules`: a `.cuda()` under a CUDA check is guarded when the program has a working
path without CUDA, and stays an item when the same file also moves to CUDA where no check guards it."""
from conftest import CONTEXT_FIXTURES, scan_findings

MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_guarded_moves_stay_items_when_the_file_has_no_cpu_path():
    got = [(f[0], f[1], f[2], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "no_cpu_path", "--show-guarded")
           if f[3] == "TRN241" and f[4] == MOVE]
    assert got == [
        # every move is under `if use_cuda:`: the CPU path works, the moves are guarded (the check is the item)
        ("cpu_ok/train.py", 8, 17, True),
        ("cpu_ok/train.py", 11, 31, True),  # (the second move of the statement is a place of this one)
        # a test file keeps its guards (tests skip without CUDA whatever else they move)
        ("tests/test_move.py", 5, 9, False),
        ("tests/test_move.py", 7, 13, True),
        # the model moves with no check: the guarded input moves must follow it to the Neuron device
        ("train/cifar.py", 7, 13, False),
        ("train/cifar.py", 10, 31, False),
        ("train/main_ce.py", 15, 14, False),
        ("train/main_linear.py", 20, 14, False),
    ]


def test_data_parallel_of_the_only_path_stays_and_cuda_queries_stay_guarded():
    # main_linear.py moves the images with no check (line 20): the DataParallel of the CUDA branch is the
    # multi-device plan of the only working path (TRN352 is in no-cpu-path-rules)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "no_cpu_path", "--show-guarded")
           if f[0] == "train/main_linear.py" and f[3] == "TRN352"]
    assert got == [
        (6, 17, "TRN352", False),
        # ... but not under a test that asks for more than one device: the one-device run skips that arm on any
        # machine (fresh76: five such arms read as skipped code; 14 of 16 recorded verdicts)
        (14, 21, "TRN352", True),
    ]


def test_data_parallel_under_a_device_count_test_is_guarded_and_cuda_queries_stay_guarded():
    # main_ce.py: the same program shape as SupContrast's main_ce.py; the DataParallel sits under
    # `torch.cuda.device_count() > 1`, the device count and the memory statistic under the check stay skipped code
    # (TRN243 is not a no-cpu-path rule)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "no_cpu_path", "--show-guarded")
           if f[0] == "train/main_ce.py"]
    assert got == [
        (5, 8, "TRN243", False),
        (6, 12, "TRN243", True),
        (7, 21, "TRN352", True),
        (10, 15, "TRN243", True),
        (15, 14, "TRN241", False),
    ]
