"""Training-config settings no code of the project reads are guarded (guarded_by "config-key-unread")."""
import json

from conftest import run_cli

CONFIG = """{
    "distributed": {
        "backend": "nccl",
        "world_size": 2
    },
    "model": {
        "use_flash_attention": true,
        "hidden": 16
    }
}
"""

TRAIN_READS = """import json
import torch.distributed as dist

cfg = json.load(open("configs/run.json"))
dist.init_process_group(backend=cfg["distributed"]["backend"])
model = build(cfg["model"]["hidden"])
"""

# Look-alike: `backend` only as a keyword of a library call, a local variable and a written config key;
# `distributed` only as torch's module.
TRAIN_IGNORES = """import json
import torch
import torch.distributed as dist

cfg = json.load(open("configs/run.json"))
backend = "gloo" if cfg["model"]["hidden"] < 8 else "nccl"
dist.init_process_group(backend=backend)
cfg["distributed"]["backend"] = backend
torch.distributed.barrier()
"""

DEEPSPEED = """{
    "train_micro_batch_size_per_gpu": 4,
    "fp16": {"enabled": true},
    "zero_optimization": {"stage": 2}
}
"""


def _scan(root, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", *args, cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"] if not f["path"].endswith(".py")]


def _tree(root, train: str):
    (root / "configs").mkdir()
    (root / "configs" / "run.json").write_text(CONFIG)
    (root / "train.py").write_text(train)


def test_a_key_the_code_reads_stays_reported(tmp_path):
    _tree(tmp_path, TRAIN_READS)
    assert _scan(tmp_path) == [
        ("configs/run.json", 3, "TRN271", False, None),
        # `use_flash_attention` is named nowhere in the code: nobody reads it
        ("configs/run.json", 7, "TRN282", True, "config-key-unread"),
    ]


def test_a_key_named_only_by_writes_library_keywords_and_modules_is_unread(tmp_path):
    _tree(tmp_path, TRAIN_IGNORES)
    assert _scan(tmp_path) == [
        ("configs/run.json", 3, "TRN271", True, "config-key-unread"),
        ("configs/run.json", 7, "TRN282", True, "config-key-unread"),
    ]
    # hidden without --show-guarded, and counted as guarded
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert [f for f in json.loads(proc.stdout)["findings"] if f["path"].endswith(".json")] == []


def test_a_parameter_or_config_field_reads_the_key(tmp_path):
    _tree(tmp_path, "from dataclasses import dataclass\n\n\n@dataclass\nclass Distributed:\n"
                    "    backend: str = 'gloo'\n\n\ndef run(distributed=None, model=None, *, use_flash_attention=False, **kw):\n"
                    "    return distributed, use_flash_attention\n")
    assert _scan(tmp_path) == [
        ("configs/run.json", 3, "TRN271", False, None),
        ("configs/run.json", 7, "TRN282", False, None),
    ]


def test_a_deepspeed_config_handed_to_deepspeed_stays(tmp_path):
    (tmp_path / "ds_config.json").write_text(DEEPSPEED)
    (tmp_path / "train.py").write_text("import deepspeed\n\nengine = deepspeed.initialize(config='ds_config.json')\n")
    # the config itself is DeepSpeed's (TRN287 at its ZeRO section) and its fp16 block stays reported
    assert _scan(tmp_path) == [("ds_config.json", 3, "TRN254", False, None),
                               ("ds_config.json", 4, "TRN287", False, None)]


def test_a_project_without_python_keeps_every_setting(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.json").write_text(CONFIG)
    assert _scan(tmp_path) == [
        ("configs/run.json", 3, "TRN271", False, None),
        ("configs/run.json", 7, "TRN282", False, None),
    ]


def test_a_library_section_under_a_project_key_needs_that_key_read(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text(
        "model:\n  base_learning_rate: 1.0e-4\nlightning:\n  trainer:\n    benchmark: True\n")
    (tmp_path / "sample.py").write_text("from omegaconf import OmegaConf\n\ncfg = OmegaConf.load('x')\n"
                                        "print(cfg.model.base_learning_rate)\n")
    assert _scan(tmp_path) == [("configs/train.yaml", 5, "TRN261", True, "config-key-unread")]
    (tmp_path / "main.py").write_text("import pytorch_lightning as pl\n\nlightning_config = config.pop('lightning')\n")
    assert _scan(tmp_path) == [("configs/train.yaml", 5, "TRN261", False, None)]


def _key_by_key_trainer_config(root):
    """TGCN-GSL (blind73): a LightningCLI-shaped config (`fit: trainer: accelerator: cuda`) read key by key by a main.py
    that imports no Lightning and never names `accelerator`: the setting is unread."""
    (root / "configs").mkdir(exist_ok=True)
    (root / "configs" / "gru.yaml").write_text(
        "fit:\n  trainer:\n    max_epochs: 30\n    accelerator: cuda\n    devices: 1\n  data:\n    batch_size: 64\n"
        "  model:\n    learning_rate: 0.001\n    weight_decay: 1.5e-3\n")
    (root / "main.py").write_text(
        "import yaml\n\nconfig = yaml.safe_load(open('configs/gru.yaml'))\n"
        "epochs = config['fit']['trainer']['max_epochs']\nbatch = config['fit']['data']['batch_size']\n")
    assert _scan(root) == [("configs/gru.yaml", 4, "TRN242", True, "config-key-unread")]


def test_a_trainer_section_is_lightning_s_only_where_the_project_uses_lightning(tmp_path):
    _key_by_key_trainer_config(tmp_path)
    (tmp_path / "cli.py").write_text("from lightning.pytorch.cli import LightningCLI\n\nLightningCLI()\n")
    assert _scan(tmp_path) == [("configs/gru.yaml", 4, "TRN242", False, None)]


def test_a_warm_scan_answers_from_the_cached_summaries_alike(tmp_path):
    _tree(tmp_path, TRAIN_IGNORES)
    cache = tmp_path.parent / (tmp_path.name + "-cache")
    args = ("scan", ".", "--format", "json", "--show-guarded", "--cache-dir", cache)
    cold, warm = (json.loads(run_cli(*args, cwd=tmp_path).stdout)["findings"] for _ in range(2))
    assert [(f["line"], f["guarded_by"]) for f in warm if f["path"].endswith(".json")] == \
        [(3, "config-key-unread"), (7, "config-key-unread")] == \
        [(f["line"], f["guarded_by"]) for f in cold if f["path"].endswith(".json")]
    # the code starts reading the key: the config's cached result is reused, the verdict follows the code
    (tmp_path / "train.py").write_text(TRAIN_READS)
    again = json.loads(run_cli(*args, cwd=tmp_path).stdout)["findings"]
    assert [(f["line"], f.get("guarded_by")) for f in again if f["path"].endswith(".json")] == \
        [(3, None), (7, "config-key-unread")]


def test_a_recipe_of_a_tool_outside_the_project_stays(tmp_path):
    # an axolotl-style recipe beside an unrelated script: none of its top-level keys is named by the code
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "qlora.yml").write_text(
        "base_model: meta-llama/Llama-3.2-3B\nadapter: lora\nsequence_len: 4096\nflash_attention: true\n")
    (tmp_path / "prepare.py").write_text("import json\n\ndef shard(rows, parts):\n    return rows[::parts]\n")
    assert _scan(tmp_path) == [("examples/qlora.yml", 4, "TRN282", False, None)]


def test_a_recipe_naming_the_classes_it_builds_stays(tmp_path):
    # Hydra `_target_` nodes: their keys are the built classes' arguments, read wherever those classes live
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text(
        "model:\n  hidden: 4\ntrainer:\n  _target_: training.trainer.Trainer\n  distributed:\n    backend: nccl\n")
    (tmp_path / "run.py").write_text("def main(cfg):\n    return cfg.model.hidden\n")
    assert _scan(tmp_path) == [("configs/train.yaml", 6, "TRN271", False, None)]


def test_a_launcher_node_is_read_by_the_launcher(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "model:\n  hidden: 4\nhydra:\n  launcher:\n    gpus_per_node: 8\n")
    (tmp_path / "run.py").write_text("def main(cfg):\n    return cfg.model.hidden\n")
    assert _scan(tmp_path) == [("configs/run.yaml", 5, "TRN610", False, None)]


def test_keys_the_basicsr_library_reads_stay(tmp_path):
    # BasicSR option files are handed whole to basicsr.train.train_pipeline: basicsr reads `num_gpu` and passes
    # `dist_params` to init_dist; the project names the file's other keys (`train`) but never these two.
    (tmp_path / "options").mkdir()
    (tmp_path / "options" / "train_x.yml").write_text(
        "name: train_x\nnum_gpu: auto\nmanual_seed: 0\ntrain:\n  total_iter: 10\n  use_flash_attention: true\n"
        "dist_params:\n  backend: nccl\n  port: 29500\n")
    (tmp_path / "train.py").write_text(
        "from basicsr.train import train_pipeline\n\n\ndef main(opt):\n    return opt['train']['total_iter']\n\n\n"
        "train_pipeline('.')\n")
    assert _scan(tmp_path) == [
        ("options/train_x.yml", 2, "TRN610", False, None),
        # a key of the project's own (no library reads it) and named nowhere in the code stays guarded
        ("options/train_x.yml", 6, "TRN282", True, "config-key-unread"),
        ("options/train_x.yml", 8, "TRN271", False, None),
    ]


def test_a_section_the_project_declares_itself_needs_its_keys_read(tmp_path):
    # esvit's yacs defaults declare `_C.AMP.ENABLED = False` and no code reads `AMP.ENABLED`: its experiment
    # configs' `AMP: ENABLED: true` is the project's key, not the `amp` section DeepSpeed reads by itself, so it is
    # unread. Reading `config.AMP.ENABLED` keeps it; a project that declares nothing keeps it as a library's.
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "default.py").write_text(
        "from yacs.config import CfgNode as CN\n\n_C = CN()\n_C.OUTPUT_DIR = ''\n_C.AMP = CN()\n"
        "_C.AMP.ENABLED = False\n")
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "base.yaml").write_text("OUTPUT_DIR: 'OUTPUT/'\nAMP:\n  ENABLED: true\n")
    (tmp_path / "train.py").write_text("from config.default import _C as config\n\nprint(config.OUTPUT_DIR)\n")
    assert _scan(tmp_path) == [("experiments/base.yaml", 3, "TRN254", True, "config-key-unread")]
    (tmp_path / "train.py").write_text("from config.default import _C as config\n\n"
                                       "print(config.OUTPUT_DIR, config.AMP.ENABLED)\n")
    assert _scan(tmp_path) == [("experiments/base.yaml", 3, "TRN254", False, None)]
    (tmp_path / "config" / "default.py").write_text("from yacs.config import CfgNode as CN\n\n_C = CN()\n"
                                                    "_C.OUTPUT_DIR = ''\n")
    (tmp_path / "train.py").write_text("from config.default import _C as config\nfrom detectron2.engine import "
                                       "DefaultTrainer\n\nprint(config.OUTPUT_DIR)\n")
    assert _scan(tmp_path) == [("experiments/base.yaml", 3, "TRN254", False, None)]


def test_a_library_section_is_the_libraries_only_when_the_project_imports_one_of_them(tmp_path):
    # fresh59 class (X-Decoder): `SOLVER: AMP: ENABLED: true` in its configs, its own trainer reads SOLVER but never
    # AMP, and it imports neither DeepSpeed nor detectron2's trainers nor fairseq nor Lightning, the libraries that
    # read an `amp` section by themselves (`amp.*@...` in library-read-settings): unread. Importing detectron2.engine
    # (its DefaultTrainer picks AMPTrainer from SOLVER.AMP.ENABLED) keeps it.
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "MODEL:\n  NAME: xdecoder\nSOLVER:\n  BASE_LR: 0.1\n  MAX_NUM_EPOCHS: 50\n  AMP:\n    ENABLED: True\n")
    (tmp_path / "train.py").write_text("import yaml\nfrom detectron2.structures import Boxes\n\n"
                                       "opt = yaml.safe_load(open('configs/run.yaml'))\nprint(opt['SOLVER']['BASE_LR'])\n")
    assert _scan(tmp_path) == [("configs/run.yaml", 7, "TRN254", True, "config-key-unread")]
    (tmp_path / "engine.py").write_text("from detectron2.engine import DefaultTrainer\n")
    assert _scan(tmp_path) == [("configs/run.yaml", 7, "TRN254", False, None)]


def test_a_hydra_target_naming_lightning_makes_the_trainer_section_lightning_s(tmp_path):
    # the lightning-hydra-template: `configs/trainer/default.yaml` instantiates `pytorch_lightning.Trainer`, so the
    # group's `accelerator: gpu` is Lightning's to read, whatever the project's Python imports
    _key_by_key_trainer_config(tmp_path)
    (tmp_path / "configs" / "trainer").mkdir()
    (tmp_path / "configs" / "trainer" / "default.yaml").write_text("_target_: pytorch_lightning.Trainer\n")
    assert _scan(tmp_path) == [("configs/gru.yaml", 4, "TRN242", False, None)]


def test_a_recipe_naming_module_and_class_hands_each_node_to_its_class(tmp_path):
    # efficient_det_pytorch's flame configs (blind80): `engine: {module: flame.core.engine.evaluator, class:
    # Evaluator, Evaluator: {device: ...}}`; the loader imports the module, looks the class up and calls it with the
    # node, so `device` is the class's parameter whatever the code names. Without `module` beside `class` the
    # node is an ordinary section whose keys the project must name.
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "test.yaml").write_text(
        "epochs: 3\nbatch_size: 8\n"
        "engine:\n  module: flame.core.engine.evaluator\n  class: Evaluator\n  Evaluator:\n    device: cuda\n")
    (tmp_path / "configs" / "plain.yaml").write_text(
        "epochs: 3\nbatch_size: 8\nengine:\n  class: Evaluator\n  Evaluator:\n    device: cuda:1\n")
    (tmp_path / "run.py").write_text(
        "import importlib\nimport yaml\n\n\ndef build(node):\n"
        "    return getattr(importlib.import_module(node['module']), node['class'])(**node[node['class']])\n\n\n"
        "cfg = yaml.safe_load(open('configs/test.yaml'))\nbuild(cfg['engine'])\n"
        "print(yaml.safe_load(open('configs/plain.yaml'))['engine']['class'])\n")
    assert _scan(tmp_path) == [
        ("configs/plain.yaml", 6, "TRN242", True, "config-key-unread"),
        ("configs/test.yaml", 7, "TRN242", False, None),
    ]
