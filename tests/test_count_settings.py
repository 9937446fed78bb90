"""A GPU count in a training config that only sizes a device call of the code is a place of that call's finding
(project/count_settings.py, fresh48: mmskeleton's `gpus: 4` beside `MMDataParallel(..., device_ids=range(gpus))`)."""
import json

from conftest import run_cli

RUNNER = """import torch
from mmcv.parallel import MMDataParallel


def train(model_cfg, dataset_cfg, gpus=1, workers=4):
    model = build(model_cfg)
    model = MMDataParallel(model, device_ids=range(gpus)).cuda()
    return model
"""

OTHER = """import os


def visible(devices):
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, devices))
    return torch.device("cuda:0")
"""


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_a_count_the_code_names_on_a_device_call_is_a_place_of_it(tmp_path):
    (tmp_path / "mmskel" / "processor").mkdir(parents=True)
    (tmp_path / "mmskel" / "__init__.py").write_text("")
    (tmp_path / "mmskel" / "processor" / "__init__.py").write_text("")
    (tmp_path / "mmskel" / "processor" / "recognition.py").write_text(RUNNER)
    (tmp_path / "aaa_tools").mkdir()
    (tmp_path / "aaa_tools" / "gpu.py").write_text(OTHER.replace("devices", "gpus"))
    (tmp_path / "configs").mkdir()
    for name in ("train.yaml", "test.yaml"):
        (tmp_path / "configs" / name).write_text(
            "processor_cfg:\n  type: 'processor.recognition.train'\n  batch_size: 64\n  gpus: 4\n")
    # a launcher's request no line of the code names stays a finding of its own
    (tmp_path / "configs" / "launcher.yaml").write_text("hydra:\n  launcher:\n    gpus_per_node: 8\n")
    got = _scan(tmp_path)
    assert [(f["path"], f["line"], f["column"], f["rule"]) for f in got if f["rule"] == "TRN610"] == [
        ("configs/launcher.yaml", 3, 20, "TRN610")]
    host = next(f for f in got if f["path"] == "mmskel/processor/recognition.py" and f["rule"] == "TRN241")
    # the runner the configs name (`processor.recognition`) wins over another file naming `gpus` on a device line
    assert (host["line"], host["column"]) == (7, 13)
    assert host["message"] == (".cuda() moves a tensor or module to a GPU: `cuda`; device count set by `gpus: 4` at "
                               "configs/test.yaml:4, `gpus: 4` at configs/train.yaml:4")
    assert [(e["path"], e["line"]) for e in host["elsewhere"]] == [("configs/test.yaml", 4), ("configs/train.yaml", 4)]


def test_a_count_no_device_line_names_stays_a_finding(tmp_path):
    (tmp_path / "train.py").write_text("import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n")
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text("train:\n  num_gpus: 2\n")
    got = _scan(tmp_path)
    assert [(f["path"], f["line"], f["rule"]) for f in got] == [
        ("configs/run.yaml", 2, "TRN610"), ("train.py", 2, "TRN241")]


def test_gpu_ids_are_only_ever_places(tmp_path):
    # MSRA pose code: `GPUS: '0'` in every experiment config, `gpus = [int(i) for i in config.GPUS.split(',')]` and
    # `DataParallel(model, device_ids=gpus).cuda()` in train.py (human-pose-estimation.pytorch, blind48). Without a
    # device line naming the key the ids are dropped (TRN616 is place-only), unlike a count (TRN610)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "res50.yaml").write_text("GPUS: '0'\nOUTPUT_DIR: 'output'\nMODEL:\n  NAME: pose\n")
    (tmp_path / "experiments" / "res101.yaml").write_text("GPUS: (0,1,2,3)\nOUTPUT_DIR: 'output'\nMODEL:\n  NAME: pose\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom config import config\n\n\ndef main(model):\n"
        "    gpus = [int(i) for i in config.GPUS.split(',')]\n"
        "    model = torch.nn.DataParallel(model, device_ids=gpus).cuda()\n    return model\n")
    got = _scan(tmp_path)
    assert [(f["path"], f["line"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere") or ()])
            for f in got] == [("train.py", 7, "TRN241", [("experiments/res101.yaml", 1), ("experiments/res50.yaml", 1)]),
                              ("train.py", 7, "TRN352", [])]
    (tmp_path / "train.py").write_text("import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n")
    assert [(f["path"], f["rule"]) for f in _scan(tmp_path)] == [("train.py", "TRN241")]
