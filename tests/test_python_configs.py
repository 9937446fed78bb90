"""Python config modules (mmcv / mmengine style: a module of assignments in a config folder) are read as training
configs: their literal settings meet the catalogue's `setting` matchers (readers/python_configs.py), and a key the
project's code never names is guarded like a YAML config's (project/config_keys.py)."""
import json

from conftest import run_cli

CONFIG = """_base_ = ['./base.py']
train_batch_size = 32
optimizer = dict(type='AdamW', lr=1e-4)
mixed_precision = 'fp16'
model = dict(type='DiT', fused_add_norm=True, block=dict(depth=28))
compile = dict(backend='neuron')
dist_backend = 'nccl'
"""

# look-alikes: the same keys set to values that need no change
CPU_CONFIG = """_base_ = ['./base.py']
mixed_precision = 'bf16'
model = dict(type='DiT', fused_add_norm=False)
notes = {'mixed_precision': 'fp16 on the old cluster'}
dist_backend = 'gloo'
"""

TRAIN = """from accelerate import Accelerator
from mmcv import Config


def main(path):
    config = Config.fromfile(path)
    accelerator = Accelerator(mixed_precision=config.mixed_precision)
    model = build(config.model)
    return accelerator, model
"""


def _scan(root, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", *args, cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"] if f["path"].startswith(("configs/", "tools/"))]


def test_settings_of_a_config_module_are_reported_and_unread_ones_guarded(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train_fp16.py").write_text(CONFIG)
    (tmp_path / "configs" / "train_cpu.py").write_text(CPU_CONFIG)
    (tmp_path / "train.py").write_text(TRAIN)
    assert _scan(tmp_path) == [
        # read as `config.mixed_precision` into Accelerator
        ("configs/train_fp16.py", 4, "TRN254", False, None),
        # a setting the model library reads from the `model` node the code hands it
        ("configs/train_fp16.py", 5, "TRN292", False, None),
        # `dist_backend` is named nowhere in the project's code
        ("configs/train_fp16.py", 7, "TRN271", True, "config-key-unread"),
    ]
    # once the code reads it, it is reported
    (tmp_path / "train.py").write_text(TRAIN + "\n\ndef dist(config):\n    init(backend=config.dist_backend)\n")
    assert ("configs/train_fp16.py", 7, "TRN271", False, None) in _scan(tmp_path)


def test_modules_that_do_more_than_assign_or_sit_outside_a_config_folder_are_not_configs(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "configs" / "make.py").write_text(CONFIG + "\n\ndef dump():\n    return mixed_precision\n")
    (tmp_path / "configs" / "run.py").write_text(CONFIG + "main()\n")
    (tmp_path / "tools" / "train_fp16.py").write_text(CONFIG)
    (tmp_path / "train.py").write_text(TRAIN)
    assert _scan(tmp_path) == []


def test_a_config_module_no_rule_token_names_is_still_read(tmp_path):
    # nothing in the text is a token of the Python matchers: the module is read for its settings all the same
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "base.py").write_text("train_batch_size = 8\nnum_epochs = 2\nmixed_precision = 'fp16'\n")
    (tmp_path / "train.py").write_text(TRAIN)
    assert _scan(tmp_path) == [("configs/base.py", 3, "TRN254", False, None)]


DET3D = """import itertools

tasks = [dict(num_class=1, class_names=["car"])]
model = dict(type="VoxelNet", reader=dict(type="VoxelFeatureExtractorV3"))
optimizer = dict(type="adam", amsgrad=0.0)
total_epochs = 20
dist_params = dict(backend="nccl", init_method="env://")
"""

DET3D_TRAIN = """import torch


def main(cfg, args):
    torch.distributed.init_process_group(backend="nccl", init_method="env://")
    model = build(cfg.model)
    return model
"""


def test_dist_params_of_a_config_module_no_code_of_the_project_names_is_unread(tmp_path):
    # `dist_params = dict(backend="nccl")`: the keyword finding of the Python pass, judged as the setting it is;
    # CenterPoint's train script hard-codes its backend and names `dist_params` nowhere
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "centerpoint.py").write_text(DET3D)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text(DET3D_TRAIN)
    assert _scan(tmp_path) == [("configs/centerpoint.py", 7, "TRN271", True, "config-key-unread"),
                               ("tools/train.py", 5, "TRN271", False, None)]
    # mmdetection's train script hands the key to init_dist: the setting is read, and reported
    (tmp_path / "tools" / "train.py").write_text(DET3D_TRAIN + "\n\ndef dist(cfg, args):\n"
                                                 "    init_dist(args.launcher, **cfg.dist_params)\n")
    assert ("configs/centerpoint.py", 7, "TRN271", False, None) in _scan(tmp_path)
