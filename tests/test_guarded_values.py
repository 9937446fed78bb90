"""A value moved to where it enters the file is judged there by the guard predicates (neuron-guarded)."""
from conftest import scan_findings

SRC = '''import torch
import torch.distributed as dist


def setup(rank, cpu_only):
    if not cpu_only and torch.cuda.is_available():
        device = torch.device(f"cuda:{rank}")
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    dist.init_process_group(backend=backend)
    return device


def setup_env(flag):
    if flag:
        backend = "nccl"
    else:
        backend = "gloo"
    dist.init_process_group(backend=backend)
'''
NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group` (`backend` may be 'nccl' or " \
       "'gloo') (the value is passed to `torch.distributed.init_process_group` later)"


def test_a_backend_in_the_cuda_arm_of_a_device_pick_stays_with_the_pick(tmp_path):
    (tmp_path / "dist_setup.py").write_text(SRC)
    found = [f for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN271"]
    assert found == [
        # if/else on torch.cuda.is_available(): the distributed half of the device pick, like "cuda:{rank}"
        ("dist_setup.py", 8, 19, "TRN271", NCCL, False),
        ("dist_setup.py", 18, 19, "TRN271", NCCL, False),  # a user switch: the nccl arm may run
    ]


GUARD_ONLY = '''import torch
import torch.distributed as dist


def setup():
    backend = "gloo"
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
        backend = "nccl"
    dist.init_process_group(backend=backend)
'''


def test_a_backend_set_only_inside_a_cuda_guard_is_guarded(tmp_path):
    (tmp_path / "dist_setup.py").write_text(GUARD_ONLY)
    found = [f for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN271"]
    assert [(f[1], f[5]) for f in found] == [(9, True)]  # never assigned on Neuron: gloo is taken there
