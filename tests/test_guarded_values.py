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


def setup_gpu_only():
    if torch.cuda.is_available():
        backend = "nccl"
    else:
        raise NotImplementedError("CUDA was not found")
    dist.init_process_group(backend=backend)
'''
NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group` (`backend` may be 'nccl' or " \
       "'gloo') (the value is passed to `torch.distributed.init_process_group` later)"


def test_the_check_of_a_device_pick_is_reported_and_a_backend_stays_while_the_other_arm_goes_on(tmp_path):
    (tmp_path / "dist_setup.py").write_text(SRC)
    found = [f for f in scan_findings(tmp_path, "--show-guarded") if f[3] in ("TRN271", "TRN243", "TRN242")]
    is_available = "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`"
    assert found == [
        # if/else on torch.cuda.is_available(): the check picks device and backend, and is the finding; the arm
        # it never takes on Neuron is guarded, except the backend: the group starts on Neuron with "gloo"
        ("dist_setup.py", 6, 25, "TRN243", is_available, False),
        ("dist_setup.py", 7, 31, "TRN242", '"cuda" device string: `cuda:*`', True),
        ("dist_setup.py", 8, 19, "TRN271", NCCL, False),
        ("dist_setup.py", 18, 19, "TRN271", NCCL, False),  # a user switch: the nccl arm may run
        ("dist_setup.py", 25, 8, "TRN243", is_available, False),
        # the other arm raises: the nccl path is the only one the program has, so its process group stays a
        # finding next to the check (neuron-guarded: a raising arm guards nothing)
        ("dist_setup.py", 29, 5, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group`",
         False),
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
