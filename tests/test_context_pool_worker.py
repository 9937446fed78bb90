"""pool-worker: a function handed to a process pool works on host data pickled to another process."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_process_pool_workers_are_guarded_and_others_stay():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "pool_worker", "--show-guarded")]
    assert found == [
        ("dummy_pool.py", 7, "TRN191", False),  # multiprocessing.dummy's Pool runs threads (named by `dummy` alone)
        ("threads.py", 7, "TRN191", False),  # a thread pool: its workers share the device
        ("vis_seg.py", 11, "TRN191", True),  # WorkerPool(img_save_and_viz, ...)
        ("vis_seg.py", 16, "TRN104", True),  # workers.apply_async(save_mask, ...)
        ("vis_seg.py", 22, "TRN191", False),  # refine moves its input to a device
        ("vis_seg.py", 26, "TRN191", False),  # postprocess is called directly
        ("vis_seg.py", 33, "TRN241", False),
    ]


def test_registered_as_a_guard():
    assert context.get("pool-worker").effect == "guard"
