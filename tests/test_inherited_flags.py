"""An instance flag a base class of another module sets from a never-on-Neuron check guards the blocks a subclass
opens with it (project/inherited_flags.py): `self.use_gpu = torch.cuda.is_available() and use_gpu` in
`Engine.__init__`, then `if self.use_gpu: imgs = imgs.cuda()` in a subclass's method."""
import json

from conftest import run_cli

ENGINE = '''import torch


class Engine:
    def __init__(self, model, use_gpu=True):
        self.model = model
        self.use_gpu = torch.cuda.is_available() and use_gpu
        self.half = use_gpu

    def run(self, x):
        if self.use_gpu:
            x = x.cuda()
        return self.model(x)
'''
INIT = "from .engine import Engine\n"  # the package re-exports the base class
TRIPLET = '''from ..engine import Engine
from .. import Engine as Reexported


class TripletEngine(Engine):
    def step(self, imgs, pids):
        if self.use_gpu:
            imgs = imgs.cuda()
            pids = pids.cuda()
        if self.half:
            imgs = imgs.cuda()
        return self.model(imgs), pids


class ThroughInit(Reexported):
    def step(self, imgs):
        if self.use_gpu and imgs is not None:
            imgs = imgs.cuda()
        return imgs


class OwnFlag(Engine):
    def __init__(self, model):
        super().__init__(model)
        self.use_gpu = True

    def step(self, imgs):
        if self.use_gpu:
            imgs = imgs.cuda()
        return imgs
'''


def test_blocks_under_an_inherited_cuda_flag_are_guarded(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "image").mkdir(parents=True)
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "engine.py").write_text(ENGINE)
    (pkg / "image" / "__init__.py").write_text("")
    (pkg / "image" / "triplet.py").write_text(TRIPLET)
    # (a script imports the sub-package: one nothing imports is dead as a whole, never-imported)
    (tmp_path / "train.py").write_text("from pkg.image.triplet import OwnFlag, ThroughInit, TripletEngine\n\n"
                                       "for cls in (OwnFlag, ThroughInit, TripletEngine):\n"
                                       "    cls(None).step(None)\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["column"], f["rule"], f["guarded"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "pkg/image/triplet.py"]
    assert got == [
        # the base class sets self.use_gpu from torch.cuda.is_available(): the subclass's arm never runs on Neuron
        (8, 20, "TRN241", True, [9]),
        # self.half holds the caller's option, not a check: the move stays a finding, never folded into the
        # guarded block's
        (11, 20, "TRN241", False, []),
        # a base imported through the package's re-export, the flag one part of an `and`
        (18, 20, "TRN241", True, []),
        # a subclass that sets the attribute itself decides it there
        (29, 20, "TRN241", False, []),
    ]


ENGINE_UTILS = '''import torch
import torch.distributed as dist


class Engine:
    def __init__(self, local_rank=0):
        self.distributed = False
        num_gpus = torch.cuda.device_count()
        if num_gpus > 1:
            self.distributed = True
            dist.init_process_group(backend="nccl", init_method="env://")
        self.half = local_rank > 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
'''
TRAIN = '''import torch

from utils.engine import Engine


def main(model, local_rank):
    with Engine(local_rank=local_rank) as engine:
        if engine.distributed:
            torch.cuda.set_device(local_rank)
        if engine.half:
            torch.cuda.empty_cache()
    return model
'''


def test_an_instance_flag_read_through_a_local_instance_of_a_project_class(tmp_path):
    # ACNet: `with Engine(...) as engine:` then `if engine.distributed:`, which Engine sets True only when
    # torch.cuda.device_count() > 1; a stale copy of the module under deprecated/ (no package) claims the same
    # module name, and the script imports the one below its own folder
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "engine.py").write_text(ENGINE_UTILS)
    (tmp_path / "deprecated" / "utils").mkdir(parents=True)
    (tmp_path / "deprecated" / "utils" / "engine.py").write_text(ENGINE_UTILS.replace("num_gpus > 1", "True"))
    (tmp_path / "ndp_train.py").write_text(TRAIN)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
           if f["path"] == "ndp_train.py"]
    assert got == [(9, "TRN243", True),  # engine.distributed: never True on Neuron
                   (11, "TRN243", False)]  # engine.half follows a parameter
