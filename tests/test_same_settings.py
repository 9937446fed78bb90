"""Report step same_settings (trnready/postprocess_same_settings.py): the same setting written the same way in many
config files or launch scripts is one finding, kept beside a launch script; Python code is never folded this way."""
import json

from conftest import run_cli

_ZOO = ("log_level = 'INFO'\nload_from = None\ndist_params = dict(backend='nccl')\nworkflow = [('train', 1)]\n"
        "total_epochs = 210\noptimizer = dict(type='Adam', lr=5e-4)\nmodel = dict(type='TopDown')\n")
_PROGRAM = ("import torch\nimport torch.distributed as dist\n\n\ndef main():\n    torch.backends.cudnn.benchmark = True\n"
            "    dist.init_process_group(backend=\"nccl\")\n")


_VID = "#!/bin/bash\npython -m torch.distributed.launch --nproc_per_node=8 tools/run_net.py --cfg cfg.yaml\n"


def _project(root):
    for rel in ("configs/hrnet/hrnet_w32.py", "configs/resnet/res50.py", "configs/vit/vit_b.py", "exp/small/config.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(_ZOO)
    (root / "exp/small/run.sh").write_text(
        "#!/bin/bash\npython -m torch.distributed.launch --nproc_per_node=8 tools/train.py $(dirname $0)/config.py\n")
    for name in ("vid_a", "vid_b", "vid_c"):
        (root / "exp" / name).mkdir(parents=True)
        (root / "exp" / name / "run.sh").write_text(_VID)
    # the same line in scripts of other names, and in only two config files: not copies of one template
    (root / "scripts").mkdir()
    (root / "scripts" / "train_vid.sh").write_text(_VID)
    (root / "recipes").mkdir()
    for name in ("zero2.py", "zero3.py"):
        (root / "recipes" / name).write_text("model = dict(type='M')\noptimizer = dict(lr=1)\n"
                                             "dist_params = dict(backend='NCCL')\n")
    (root / "tools").mkdir()
    (root / "tools/train.py").write_text(_PROGRAM)
    (root / "tools/test.py").write_text(_PROGRAM)
    (root / "tools/run_net.py").write_text("import torch\n")


def _scan(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_zoo_configs_and_identical_launch_lines_are_one_finding_each(tmp_path):
    _project(tmp_path)
    assert _scan(tmp_path) == [
        # the experiment's own config (beside its run.sh) holds the zoo copies
        ("exp/small/config.py", 3, 28, "TRN271", [("configs/hrnet/hrnet_w32.py", 3), ("configs/resnet/res50.py", 3),
                                                  ("configs/vit/vit_b.py", 3)]),
        # another command line is another setting
        ("exp/small/run.sh", 2, 53, "TRN613", []),
        ("exp/vid_a/run.sh", 2, 53, "TRN613", [("exp/vid_b/run.sh", 2), ("exp/vid_c/run.sh", 2)]),
        ("recipes/zero2.py", 3, 28, "TRN271", []),
        ("recipes/zero3.py", 3, 28, "TRN271", []),
        ("scripts/train_vid.sh", 2, 53, "TRN613", []),
        # the same statements in two programs stay two findings each
        ("tools/test.py", 6, 5, "TRN261", []),
        ("tools/test.py", 7, 5, "TRN271", []),
        ("tools/train.py", 6, 5, "TRN261", []),
        ("tools/train.py", 7, 5, "TRN271", []),
    ]


def test_another_value_is_another_finding(tmp_path):
    _project(tmp_path)
    (tmp_path / "configs/resnet/res50.py").write_text(_ZOO.replace("dict(backend='nccl')", "dict(backend = 'nccl')"))
    (tmp_path / "configs/hrnet/hrnet_w32.py").write_text(_ZOO.replace("'nccl'", "'Nccl'"))
    got = [g for g in _scan(tmp_path) if g[3] == "TRN271" and g[0].endswith("config.py") or g[0].startswith("configs")]
    # blanks do not make another setting; another spelling of the value does
    assert got == [("configs/hrnet/hrnet_w32.py", 3, 28, "TRN271", []),
                   ("exp/small/config.py", 3, 28, "TRN271", [("configs/resnet/res50.py", 3),
                                                             ("configs/vit/vit_b.py", 3)])]


def test_a_python_module_with_code_is_no_config(tmp_path):
    from trnready.postprocess_same_settings import _config_module

    (tmp_path / "a.py").write_text(_ZOO)
    (tmp_path / "b.py").write_text(_ZOO + "\ndef f():\n    pass\n")
    (tmp_path / "c.py").write_text(_ZOO + "main()\n")
    # constants only: no training key, no base (two such modules with `d = torch.device("cuda")` are two findings)
    (tmp_path / "d.py").write_text('import torch\nd = torch.device("cuda")\n')
    (tmp_path / "e.py").write_text("_base_ = ['./d.py']\nlog_level = 'INFO'\n")
    assert [_config_module(n, tmp_path) for n in ("a.py", "b.py", "c.py", "d.py", "e.py", "missing.py")] == [
        True, False, False, False, True, False]


def test_no_kinds_no_fold():
    from trnready.postprocess_same_settings import same_settings

    assert same_settings(["a", "b", "c"], frozenset()) == ["a", "b", "c"]


def test_a_malformed_count_is_one_line_naming_the_key(tmp_path):
    from pathlib import Path

    text = (Path(__file__).parent.parent / "blockers.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('same-setting-min-files = ["3"]', 'same-setting-min-files = ["three"]'))
    proc = run_cli("scan", tmp_path, "--catalogue", bad)
    assert proc.returncode == 2 and "context.values.same-setting-min-files" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
