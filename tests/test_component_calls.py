"""A config node naming what it builds (`_target_`, `_component_`, `class_path` + `init_args`) is a call of it:
the catalogue's call matchers with argument predicates apply to its keys (readers/component_calls.py)."""
import json

from conftest import run_cli, write

TRAINER = """\
_target_: pytorch_lightning.Trainer
num_nodes: 1
gpus: -1
accumulate_grad_batches: ${setup.accumulate_grad_batches}
precision: ${setup.precision}
benchmark: True
deterministic: True
"""

MODEL = """\
model:
  upsample:
    _target_: torch.nn.Upsample
    scale_factor: 2
    mode: bicubic
  plain:
    _target_: torch.nn.Upsample
    mode: nearest
  unknown:
    _target_: torch.nn.Upsample
    mode: ${oc.env:UPSAMPLE_MODE}
  wrapped:
    _target_: torch.nn.parallel.DistributedDataParallel
    device_ids: [0, 1]
"""

LIGHTNING_CLI = """\
trainer:
  class_path: lightning.pytorch.Trainer
  init_args:
    gpus: 2
    precision: "16"
    benchmark: false
"""

# A launch script beside the configs makes this a project Hydra runs; the reader needs nothing from it.
TRAIN = """\
import hydra


@hydra.main(config_path="configs", config_name="config")
def main(cfg):
    trainer = hydra.utils.instantiate(cfg.trainer)
"""


def _scan(tmp_path, files):
    for rel, text in files.items():
        write(tmp_path, rel, text)
    r = run_cli("scan", ".", "--format", "json", "--exit-zero", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return sorted((f["path"], f["line"], f["column"], f["rule"], f["message"])
                  for f in json.loads(r.stdout)["findings"])


def test_a_hydra_trainer_group_file_is_a_trainer_call(tmp_path):
    got = _scan(tmp_path, {"configs/trainer/defaults.yaml": TRAINER, "train.py": TRAIN})
    assert got == [
        ("configs/trainer/defaults.yaml", 3, 7, "TRN247",
         "Lightning 1.x `gpus=`: the Trainer asks for that many CUDA GPUs (MisconfigurationException without them)"),
        ("configs/trainer/defaults.yaml", 6, 12, "TRN261", "cuDNN / CUDA backend flag: `benchmark: True`"),
    ]  # the interpolated precision is never guessed; deterministic is no matcher's argument


def test_component_nodes_inside_a_config(tmp_path):
    got = _scan(tmp_path, {"configs/model.yaml": MODEL, "train.py": TRAIN})
    assert got == [
        ("configs/model.yaml", 5, 11, "TRN191", "Bilinear or bicubic interpolation: `mode: bicubic`"),
        ("configs/model.yaml", 14, 5, "TRN273",
         "DistributedDataParallel / barrier with per-GPU device_ids: `device_ids: [0, 1]`"),
    ]  # `mode: nearest` and the interpolated mode stay unreported


def test_lightning_cli_class_path_reads_init_args(tmp_path):
    got = _scan(tmp_path, {"configs/fit.yaml": LIGHTNING_CLI, "train.py": TRAIN})
    assert got == [
        ("configs/fit.yaml", 4, 11, "TRN247",
         "Lightning 1.x `gpus=`: the Trainer asks for that many CUDA GPUs (MisconfigurationException without them)"),
        ("configs/fit.yaml", 5, 16, "TRN254",
         "float16 mixed precision switched on by a training setting or launch flag: `precision: 16`"),
    ]  # benchmark: false holds no predicate
