"""A training config's GPU count of 1 is one process: guarded (guarded_by "single-process-count") unless the
project's code tests the key against zero or for truth, which makes the count a choice of the CUDA device."""
import json

from conftest import run_cli

from trnready.project.single_count import _tests

SWEEP = """SETUP:
  BASE_CFG:
    MODEL:
      DEPTH: 20
    OPTIM:
      BASE_LR: 0.1
    TRAIN:
      BATCH_SIZE: 256
      MIXED_PRECISION: True
    NUM_GPUS: 1
"""

MULTI = """MODEL:
  DEPTH: 50
TRAIN:
  BATCH_SIZE: 512
NUM_GPUS: 8
"""

ONLY_SIZES = """from pkg.config import cfg


def loader_batch():
    sampler = "distributed" if cfg.NUM_GPUS > 1 else None
    assert cfg.TRAIN.BATCH_SIZE % cfg.NUM_GPUS == 0
    return cfg.TRAIN.BATCH_SIZE // cfg.NUM_GPUS, sampler


def base(sweep):
    setup = sweep.SETUP
    return setup.BASE_CFG, cfg.MODEL, cfg.OPTIM, cfg.TRAIN.MIXED_PRECISION
"""

CHOOSES_DEVICE = ONLY_SIZES + """

def device():
    return "cuda" if cfg.NUM_GPUS != 0 else "cpu"
"""


def _scan(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return {(f["path"], f["line"], f["rule"]): f.get("guarded_by") or ""
            for f in json.loads(proc.stdout)["findings"] if f["path"].startswith("configs/")}


def _tree(root, code: str):
    (root / "configs" / "sweeps").mkdir(parents=True)
    (root / "configs" / "sweeps" / "base.yaml").write_text(SWEEP)
    (root / "configs" / "r50_8gpu.yaml").write_text(MULTI)
    (root / "pkg").mkdir()
    (root / "pkg" / "train.py").write_text(code)


def test_a_count_of_one_only_sized_by_is_guarded(tmp_path):
    _tree(tmp_path, ONLY_SIZES)
    got = _scan(tmp_path)
    assert got[("configs/sweeps/base.yaml", 10, "TRN610")] == "single-process-count"
    assert got[("configs/r50_8gpu.yaml", 5, "TRN610")] == ""  # a multi-GPU count stays reported
    # the sweep's base config is a training config (a `*_cfg` section below the top), read by the code through
    # a config object imported from a config module
    assert got[("configs/sweeps/base.yaml", 9, "TRN254")] == ""


def test_a_count_the_code_tests_against_zero_stays(tmp_path):
    _tree(tmp_path, CHOOSES_DEVICE)
    got = _scan(tmp_path)
    assert got[("configs/sweeps/base.yaml", 10, "TRN610")] == ""


def test_zero_and_truth_tests():
    ref, zero = _tests("num_gpu")
    for hit in ('torch.device("cuda" if opt["num_gpu"] != 0 else "cpu")', "if cfg.NUM_GPU:",
                "if not args.num_gpu or x:", "dev = 0 if num_gpu else -1", "x = 1 if cfg.num_gpu > 0 else 2"):
        assert zero.search(hit), hit
    for clean in ("if cfg.NUM_GPU > 1:", "assert bs % cfg.NUM_GPU == 0", "if cfg.NUM_GPU == 1:", "n = cfg.NUM_GPU"):
        assert ref.search(clean) and not zero.search(clean), clean


OPTION = """import argparse


def set_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_gpu", type=int, default={default})
    return parser.parse_args()
"""

TRAIN = """import torch
from config import set_args

args = set_args()
if torch.cuda.device_count() > 1:
    args.n_gpu = torch.cuda.device_count()
loss = torch.ones(2)
if args.n_gpu > 1:
    loss = loss.mean()
"""


def _options(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return sorted((f["path"], f["line"], f.get("guarded_by") or "") for f in json.loads(proc.stdout)["findings"]
                  if f["rule"] == "TRN610")


def test_an_option_default_of_one_its_program_only_compares_with_one_is_guarded(tmp_path):
    # NLP_pytorch_project (fresh76): each program's config.py defines `--n_gpu default=1`; its train.py overwrites it
    # and tells one process from several. Another program of the repository tests its own `n_gpu` against zero:
    # that says nothing of this one. A default of 8, a program testing `if args.n_gpu:` and an option nothing
    # reads stay reported.
    for name, default, train in (("one", 1, TRAIN), ("eight", 8, TRAIN),
                                 ("zero_test", 1, TRAIN + "if args.n_gpu:\n    torch.cuda.manual_seed_all(0)\n"),
                                 ("unread", 1, "from config import set_args\n\nset_args()\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.py").write_text(OPTION.format(default=default))
        (tmp_path / name / "train.py").write_text(train)
    assert _options(tmp_path) == [
        ("eight/config.py", 6, ""),
        ("one/config.py", 6, "single-process-count"),
        ("unread/config.py", 6, ""),
        ("zero_test/config.py", 6, ""),
    ]
