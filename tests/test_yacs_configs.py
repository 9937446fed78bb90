"""yacs / fvcore / detectron2 config defaults (`_C.DIST_BACKEND = "nccl"`) read as training-config settings
(trnready/readers/yacs_configs.py), and judged by the config-key-unread step like a YAML config's keys."""
import json

from conftest import run_cli

DEFAULTS = '''"""Configs."""
from fvcore.common.config import CfgNode

_C = CfgNode()
_C.TRAIN = CfgNode()
_C.TRAIN.MIXED_PRECISION = True
_C.NUM_GPUS = 1
_C.DIST_BACKEND = "nccl"
_C.MODEL = CfgNode()
_C.MODEL.DEVICE = "cpu"
_C.SOLVER = CfgNode()
_C.SOLVER.MIXED_PRECISION = False


def add_custom_config(cfg):
    cfg.DIST_BACKEND = "nccl"
    return cfg
'''

# a defaults module outside a config folder, with a def and the yacs alias
CLASSIFICATION = '''import yaml
from yacs.config import CfgNode as CN

_C = CN()
_C.DATA = CN()
_C.DATA.BATCH_SIZE = 128
_C.AMP_TYPE = 'float16'
_C.LOCAL_RANK = 0


def get_config(args):
    config = _C.clone()
    return config
'''

# look-alikes: a node that is not a yacs CfgNode, and stores on a node handed to a function
NOT_YACS = '''from types import SimpleNamespace
from detectron2.config import CfgNode as CN

_C = SimpleNamespace()
_C.DIST_BACKEND = "nccl"
_C.AMP_TYPE = "float16"


def add_config(cfg):
    cfg.MODEL.AMP_TYPE = "float16"
    _N = CN()
    _N.DIST_BACKEND = "nccl"
'''


def _scan(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return sorted((f["path"], f["line"], f["rule"], f.get("guarded_by"))
                  for f in json.loads(proc.stdout)["findings"])


def test_yacs_defaults_are_settings_and_unread_keys_are_guarded(tmp_path):
    (tmp_path / "proj" / "config").mkdir(parents=True)
    (tmp_path / "proj" / "config" / "defaults.py").write_text(DEFAULTS)
    (tmp_path / "cls").mkdir()
    (tmp_path / "cls" / "config.py").write_text(CLASSIFICATION)
    (tmp_path / "cls" / "nodes.py").write_text(NOT_YACS)
    # the code reads DIST_BACKEND, TRAIN and AMP_TYPE; NUM_GPUS is named nowhere outside the defaults module
    (tmp_path / "train.py").write_text(
        "def train(cfg):\n    if cfg.TRAIN.ENABLE:\n        run(cfg.DIST_BACKEND, cfg.DATA.BATCH_SIZE, cfg.AMP_TYPE)\n")
    assert _scan(tmp_path) == [
        ("cls/config.py", 7, "TRN254", None),  # AMP_TYPE = 'float16'
        ("proj/config/defaults.py", 6, "TRN254", None),  # TRAIN.MIXED_PRECISION = True (a library-read key)
        ("proj/config/defaults.py", 7, "TRN610", "config-key-unread"),  # NUM_GPUS: never read
        ("proj/config/defaults.py", 8, "TRN271", None),  # DIST_BACKEND = "nccl"
    ]


def test_a_yacs_module_whose_keys_the_code_never_names_stays(tmp_path):
    (tmp_path / "config.py").write_text(CLASSIFICATION)
    (tmp_path / "main.py").write_text("import torch\n\nprint(torch.__version__)\n")
    assert _scan(tmp_path) == [("config.py", 7, "TRN254", None)]


def test_keys_read_through_the_config_object_imported_from_the_defaults_module(tmp_path):
    # `from pkg.core.config import cfg` binds the config object, not a module: `cfg.DIST_BACKEND` reads the key
    (tmp_path / "pkg" / "core").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core" / "config.py").write_text(
        "from yacs.config import CfgNode\n\n_C = CfgNode()\ncfg = _C\n_C.DIST_BACKEND = \"nccl\"\n"
        "_C.NUM_GPUS = 1\n")
    (tmp_path / "pkg" / "core" / "dist.py").write_text(
        "import torch\nfrom pkg.core.config import cfg\n\n\ndef setup():\n"
        "    torch.distributed.init_process_group(backend=cfg.DIST_BACKEND)\n")
    # a module imported by name stays a module: `torch.NUM_GPUS` would not read the NUM_GPUS key
    (tmp_path / "pkg" / "core" / "other.py").write_text("import torch\n\nprint(torch.NUM_GPUS)\n")
    assert _scan(tmp_path) == [
        ("pkg/core/config.py", 5, "TRN271", None),
        ("pkg/core/config.py", 6, "TRN610", "config-key-unread"),
    ]
