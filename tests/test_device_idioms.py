"""Device idioms outside device strings (TRN351 torch.load, TRN352 DataParallel, TRN353 device choices,
TRN273 DDP device_ids, TRN181 decomposed per-channel ops): each hit reported, each look-alike silent."""
from pathlib import Path

from conftest import scan_findings

FIXTURES = Path(__file__).parent / "fixtures" / "device_idioms"


def test_hits_are_reported_and_look_alikes_are_silent():
    assert scan_findings(FIXTURES, "--show-guarded") == [
        # DDP with device_ids only in the CUDA arm never runs on Neuron (guarded); a backend picked in the arm
        # stays reported, since the process group still starts with the other arm's value
        ("guarded.py", 7, 8, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`", True),
        ("guarded.py", 8, 15, "TRN273", "DistributedDataParallel / barrier with per-GPU device_ids: "
         "`torch.nn.parallel.DistributedDataParallel`", True),
        ("guarded.py", 15, 8, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         False),
        ("guarded.py", 16, 19, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group` "
         "(`backend` may be 'nccl' or 'gloo') (the value is passed to `torch.distributed.init_process_group` later)",
         False),
        ("hits.py", 7, 18, "TRN353",
         'Device list names "cuda" but not "neuron": a device checked against it cannot be neuron', False),
        ("hits.py", 12, 60, "TRN353", 'Device choices list "cuda" but not "neuron": `--device neuron` is rejected',
         False),
        ("hits.py", 14, 12, "TRN351",
         "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks", False),
        ("hits.py", 15, 11, "TRN352",
         "nn.DataParallel (one process driving several GPUs): `torch.nn.DataParallel`", False),
        ("hits.py", 16, 13, "TRN273", "DistributedDataParallel / barrier with per-GPU device_ids: "
         "`torch.nn.parallel.DistributedDataParallel`", False),
        ("hits.py", 17, 9, "TRN181", "Per-channel quantization (quantize_per_channel, per-channel observers, qschemes, "
         "qconfigs): `torch.ops.quantized_decomposed.quantize_per_channel`", False),
        # lookalikes.py: "neuron" in both vocabularies, a non-device option listing "cuda", map_location given,
        # mmcv's MMDataParallel, DDP without device_ids, a per-tensor op, and a load of the file saved just before
    ]
