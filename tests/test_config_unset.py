"""Code under a config switch that none of the project's shipped configs sets is guarded (config-key-unset), and a
config setting whose key guards a reported finding of its category is a place of that finding
(project/config_unset.py)."""
import json
import re

from conftest import run_cli
from trnready.project.config_unset import read_from_config

# mmcv-style configs of two sub-projects: `det/` sets no switch at all (one base no config inherits sets one),
# `seg/` sets `cudnn_benchmark` in the base its configs inherit.
DET_CONFIG = """_base_ = ['./_base_/runtime.py']
model = dict(type='Tiny', depth=2)
optimizer_config = dict(grad_clip=None)
"""
DET_RUNTIME = "log_level = 'INFO'\nload_from = None\n"
DET_UNUSED_BASE = "cudnn_benchmark = True\ninput_size = 300\n"
SEG_CONFIG = "_base_ = ['./_base_/runtime.py']\nmodel = dict(type='Tiny')\n"
SEG_RUNTIME = "log_level = 'INFO'\ncudnn_benchmark = True\n"

TRAIN = """import torch
from mmcv import Config
try:
    import apex
except ImportError:
    print("apex is not installed")


def main(path):
    cfg = Config.fromfile(path)
    if cfg.get('cudnn_benchmark', False):
        torch.backends.cudnn.benchmark = True
    fp16_cfg = cfg.get('fp16', None)
    if fp16_cfg is not None:
        wrap_fp16_model(cfg.model)
    if cfg.optimizer_config.get('type', None) == 'DistOptimizerHook':
        apex.amp.initialize(cfg.model, opt_level='O1')
    if cfg.get('sync_bn', True):
        torch.backends.cudnn.deterministic = True
    return cfg


def wrap_fp16_model(model):
    return model


main('x.py')
"""


def _tree(root):
    for sub, config, runtime in (("det", DET_CONFIG, DET_RUNTIME), ("seg", SEG_CONFIG, SEG_RUNTIME)):
        (root / sub / "configs" / "_base_").mkdir(parents=True)
        (root / sub / "configs" / "tiny.py").write_text(config)
        (root / sub / "configs" / "_base_" / "runtime.py").write_text(runtime)
        (root / sub / "train.py").write_text(TRAIN)
    (root / "det" / "configs" / "_base_" / "ssd.py").write_text(DET_UNUSED_BASE)


def _scan(root):
    proc = run_cli("scan", ".", "--format", "json", "--show-guarded", "--no-cache", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_switches_no_shipped_config_sets_are_guarded(tmp_path):
    _tree(tmp_path)
    got = {(f["path"], f["line"]): f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"].endswith("train.py") and f["rule"] in ("TRN261", "TRN256", "TRN257", "TRN283")}
    # det: no config it inherits sets cudnn_benchmark or DistOptimizerHook
    assert got[("det/train.py", 12)] == "config-key-unset"
    assert got[("det/train.py", 17)] == "config-key-unset"
    # ... and the optional apex import serves only that arm (the message naming it is no use)
    assert got[("det/train.py", 4)] == "config-key-unset"
    # seg: its runtime base sets cudnn_benchmark = True: reported
    assert got[("seg/train.py", 12)] is None
    # `cfg.get('sync_bn', True)` is on unless a config turns it off: reported in both
    assert got[("det/train.py", 19)] is None and got[("seg/train.py", 19)] is None


def test_a_yaml_run_file_outside_the_config_folders_can_set_the_switch(tmp_path):
    _tree(tmp_path)
    # a run file kept beside the project code (LAVIS's `projects/*.yaml`), not in a configs folder, sets the switch
    (tmp_path / "det" / "projects").mkdir()
    (tmp_path / "det" / "projects" / "finetune.yaml").write_text("run:\n  cudnn_benchmark: true\n")
    got = {(f["path"], f["line"]): f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"] == "det/train.py" and f["rule"] in ("TRN261", "TRN256")}
    assert got[("det/train.py", 12)] is None  # cudnn_benchmark: the run file sets it
    assert got[("det/train.py", 17)] == "config-key-unset"  # DistOptimizerHook: still set nowhere


def test_a_config_setting_read_by_reported_code_is_one_item_with_it(tmp_path):
    _tree(tmp_path)
    found = _scan(tmp_path)
    assert not [f for f in found if f["path"] == "seg/configs/_base_/runtime.py" and f["rule"] == "TRN261"]
    code = [f for f in found if f["path"] == "seg/train.py" and f["line"] == 12][0]
    assert code["elsewhere"] == [{"path": "seg/configs/_base_/runtime.py", "line": 2, "column": 19,
                                  "rule": "TRN261"}]
    # the base no config inherits keeps its own finding (no code of det reads it into a reported finding)
    assert [f for f in found if f["path"] == "det/configs/_base_/ssd.py" and f["rule"] == "TRN261"]


def test_a_setting_folds_into_the_code_of_its_sub_project_in_a_tools_folder(tmp_path):
    # xcit's `semantic_segmentation/tools/train.py` reads `semantic_segmentation/configs/_base_/default_runtime.py`:
    # the script sits in a sibling folder of the configs, under the folder that holds them (fresh46)
    _tree(tmp_path)
    for sub in ("det", "seg"):
        (tmp_path / sub / "tools").mkdir()
        (tmp_path / sub / "train.py").rename(tmp_path / sub / "tools" / "train.py")
    found = _scan(tmp_path)
    assert not [f for f in found if f["path"] == "seg/configs/_base_/runtime.py" and f["rule"] == "TRN261"]
    code = [f for f in found if f["path"] == "seg/tools/train.py" and f["line"] == 12][0]
    assert code["elsewhere"] == [{"path": "seg/configs/_base_/runtime.py", "line": 2, "column": 19,
                                  "rule": "TRN261"}]
    # det's code reads the key too, but seg's setting is no value of it
    det = [f for f in found if f["path"] == "det/tools/train.py" and f["line"] == 12][0]
    assert not det.get("elsewhere")


def test_read_from_config():
    assert read_from_config("if cfg.get('fp16', None):", "fp16") is True
    assert read_from_config("if self.config['fp16']:", "fp16") is None  # raises when unset: set somewhere
    assert read_from_config("if cfg.get('fp16', True):", "fp16") is False
    assert read_from_config("if args.fp16:", "fp16") is None  # a command-line option, not a config
    assert read_from_config("if cfg.optimizer_config.get('use_fp16'):", "use_fp16") is True


def test_a_sibling_tools_config_folder_is_not_the_scripts_family(tmp_path):
    # the project's inheriting configs sit in `configs/` at the root; a data tool under `tools/` keeps JSON settings
    # of its own in `tools/prep/split/split_configs/`: a script in `tools/` belongs to the root's configs, which set
    # no cudnn_benchmark, not to the data tool's (which, inheriting nothing, left the switch unjudged)
    (tmp_path / "configs" / "_base_").mkdir(parents=True)
    (tmp_path / "configs" / "tiny.py").write_text(DET_CONFIG)
    (tmp_path / "configs" / "_base_" / "runtime.py").write_text(DET_RUNTIME)
    (tmp_path / "tools" / "prep" / "split" / "split_configs").mkdir(parents=True)
    (tmp_path / "tools" / "prep" / "split" / "split_configs" / "ss.json").write_text('{"sizes": [1024]}\n')
    (tmp_path / "tools" / "train.py").write_text(TRAIN)
    got = {f["line"]: f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"] == "tools/train.py" and f["rule"] == "TRN261"}
    assert got[12] == "config-key-unset"


def test_home_of_a_config():
    from trnready.project.config_unset import _home

    assert _home("det/configs/_base_/x.py") == "det"
    assert _home("configs/a.py") == ""
    assert _home("tools/prep/split/split_configs/ss.json") == "tools/prep/split"


def test_a_switch_the_configs_only_set_false_is_off(tmp_path):
    _tree(tmp_path)
    # det's recipes name cudnn_benchmark only to turn it off, and fp16 only as None: the truth test
    # `cfg.get('cudnn_benchmark', False)` stays off; `fp16_cfg is not None` is a None test, which False would pass
    (tmp_path / "det" / "configs" / "fast.py").write_text(
        "_base_ = ['./_base_/runtime.py']\ncudnn_benchmark = False\nfp16 = False\n")
    got = {(f["path"], f["line"]): f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"] == "det/train.py" and f["rule"] in ("TRN261", "TRN257")}
    assert got[("det/train.py", 12)] == "config-key-unset"
    # a recipe turning it on again keeps it
    (tmp_path / "det" / "configs" / "slow.py").write_text("_base_ = ['./_base_/runtime.py']\ncudnn_benchmark = True\n")
    got = {(f["path"], f["line"]): f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"] == "det/train.py" and f["rule"] == "TRN261"}
    assert got[("det/train.py", 12)] is None


def test_settings_to_false():
    from trnready.project.config_unset import _SET_OFF, _truth_test

    text = "a = False\nb: false\nc=dict(d=False, e=True)\nf = False if x else True\ng == False\n"
    assert [re.match(r"\w+", m.group(0)).group(0) for m in _SET_OFF.finditer(text)] == ["a", "b", "d"]
    assert _truth_test("cfg.get('cudnn_benchmark', False)", "cudnn_benchmark")
    assert not _truth_test("cfg.get('fp16') is not None", "fp16")
    assert not _truth_test("fp16_cfg", "fp16")


def test_whole_python_config_modules_count_as_mmcv_configs(tmp_path):
    # an older mmpose copy (UniFormer's pose_estimation/): each config module complete, no `_base_`; none sets
    # cudnn_benchmark, so the tools' switch is off. YAML-only recipes (no Python config module) stay unjudged.
    (tmp_path / "pose" / "configs" / "top_down").mkdir(parents=True)
    (tmp_path / "pose" / "configs" / "top_down" / "hrnet.py").write_text(
        "log_level = 'INFO'\ndist_params = dict(backend='nccl')\ntotal_epochs = 210\nmodel = dict(type='TopDown')\n")
    (tmp_path / "pose" / "tools").mkdir()
    (tmp_path / "pose" / "tools" / "train.py").write_text(TRAIN)
    (tmp_path / "yolo" / "configs").mkdir(parents=True)
    (tmp_path / "yolo" / "configs" / "run.yaml").write_text("model: tiny\nbatch_size: 8\nepochs: 3\n")
    (tmp_path / "yolo" / "train.py").write_text(TRAIN)
    got = {f["path"]: f.get("guarded_by") if f["guarded"] else None for f in _scan(tmp_path)
           if f["path"].endswith("train.py") and f["rule"] == "TRN261" and f["line"] == 12}
    assert got == {"pose/tools/train.py": "config-key-unset", "yolo/train.py": None}
