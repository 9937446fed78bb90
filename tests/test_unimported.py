"""Library modules nothing imports (trnready/project/unimported.py), through the real CLI on small projects.

The fixtures are copied out of this repository first: a scan whose root lies inside a project (a folder above it
holds .git or packaging) sees part of it only, and the step then judges nothing."""
import json
import shutil

from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "unimported"
DEAD = "never-imported"


def findings(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return sorted((f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in report["findings"])


def _copy(tmp_path, name):
    dest = tmp_path / name
    shutil.copytree(ROOT / name, dest)
    return dest


def test_package_modules_nothing_imports_are_guarded(tmp_path):
    assert findings(_copy(tmp_path, "app")) == [
        # models imported by run.py; their `__main__` self-check block does not make depth_blocks a script
        ("depth/models/depth_blocks.py", 6, "TRN241", ""),
        # a library module with a `__main__` self-check that only a dead module imports is dead too
        ("depth/trainers/depth_losses.py", 6, "TRN104", DEAD),
        ("depth/trainers/depth_losses.py", 11, "TRN241", DEAD),
        # loaded by name only by depth_builder.py, which nothing imports (zoo's live loader names zoo.trainers)
        ("depth/trainers/depth_trainer.py", 8, "TRN251", DEAD),
        ("nspkg/nsdead.py", 2, "TRN241", DEAD),  # a namespace package run.py imports from; this module: nobody
        ("pkg/config_named.py", 6, "TRN241", ""),  # a config names it by its dotted path
        ("pkg/dead.py", 13, "TRN241", DEAD),  # only defines, assigns and sets up logging; nobody imports it
        ("pkg/dead.py", 18, "TRN243", DEAD),
        # only its package's __init__ imports it, and no import statement names the package (`self.modules()` and
        # other plain words do not); the sibling package run.py imports over several lines keeps its module
        # (the step before, never-referenced, already guards it: only that __init__ re-exports Loss)
        ("pkg/deadsub/loss.py", 7, "TRN241", "never-referenced"),
        ("pkg/documented.py", 2, "TRN241", ""),  # the README beside it shows how to call it
        # a README above the module names it (a --user-dir task); its sibling nobody names is dead
        ("pkg/head_selection/src/other_task.py", 2, "TRN241", DEAD),
        ("pkg/head_selection/src/speech_head_selection.py", 2, "TRN241", ""),
        # the module is imported (its package's __init__ is), but no file names Loss2 (only the __init__ hands it
        # on, and run.py never writes `livesub.Loss2`): never-referenced
        ("pkg/livesub/loss2.py", 7, "TRN241", "never-referenced"),
        ("pkg/only_dead_imports.py", 2, "TRN242", DEAD),  # only a dead module imports it
        ("pkg/script_like.py", 5, "TRN241", ""),  # calls main() at its top level: a script
        ("pkg/tool.py", 5, "TRN243", ""),  # has a __main__ block: a script
        ("pkg/used.py", 2, "TRN241", ""),  # imported by run.py
        # used.py names the class its package's __init__ exports, but only inside noise_logger, which nothing names:
        # never-referenced (the __init__'s re-export hands it on, it uses nothing)
        ("pkg/usedsub/scale.py", 7, "TRN243", "never-referenced"),
        ("pkg/version_guarded.py", 11, "TRN241", DEAD),  # its top-level `raise` only guards a version check
        ("pkg2/auto.py", 2, "TRN241", ""),  # its package's __init__ imports every module by a walk
        ("plugins/plugin_a.py", 2, "TRN241", ""),  # loaded by a computed name on a line naming its folder
        ("tests/test_dead.py", 2, "TRN241", ""),  # a test: pytest runs it
        # a module at the root that nothing imports, where no root module imports another (run.py imports packages
        # only): a tool someone may import by hand (session 38 judges the root only when its modules import each other)
        ("top.py", 3, "TRN241", ""),
        # loaded by import_module(f"zoo.trainers.{name}_trainer") with the argument on the next line
        ("zoo/trainers/zoe_trainer.py", 6, "TRN251", ""),
    ]


def test_a_package_nothing_outside_it_imports_keeps_every_module(tmp_path):
    # only models/ is scanned: nothing outside the package names it, so it is a library whose users import it
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "project" / "wrapper", tree)
    assert all(g != DEAD for *_, g in findings(tree))


def test_a_declared_library_keeps_every_module(tmp_path):
    # setup.py declares pkg: its modules are the users' API even when nothing in the repository imports them
    assert findings(_copy(tmp_path, "lib")) == [("pkg/api.py", 3, "TRN241", "")]


def test_a_partial_scan_judges_nothing():
    # scanned in place, the fixture lies inside this repository: the rest of the project may import anything
    assert all(g != DEAD for *_, g in findings(ROOT / "app"))


def _application(tmp_path, requires):
    # the declared package is imported by a launcher beside it; setup.py's runtime requirements decide whether the
    # package is a library (its modules are its users' API) or an application packaged for `pip install -e .`
    root = _copy(tmp_path, "lib")
    (root / "setup.py").write_text(f'from setuptools import setup\n\nsetup(name="pkg", packages=["pkg"], '
                                   f'install_requires={requires!r}, extras_require={{"dev": ["torch==2.3.0"]}})\n')
    (root / "launch.py").write_text("from pkg.core import z\n\nif __name__ == '__main__':\n    z(1)\n")
    return [f for f in findings(root) if f[0].startswith("pkg/")]  # setup.py: a torch pin of its own


def test_an_application_pinning_torch_judges_its_declared_package(tmp_path):
    # `torch==2.3.0` in install_requires: nothing could install it beside another torch project, so no outside
    # user imports pkg/api.py
    assert _application(tmp_path, ["torch==2.3.0", "numpy"]) == [("pkg/api.py", 3, "TRN241", DEAD)]


def test_a_library_with_a_torch_range_keeps_its_declared_package(tmp_path):
    # a range, or a pin only in an extra, is how libraries declare torch: pkg/api.py is its users' API
    assert _application(tmp_path, ["torch>=2.1", "numpy==1.26.4"]) == [("pkg/api.py", 3, "TRN241", "")]


def test_sub_projects_of_a_monorepo(tmp_path):
    assert findings(_copy(tmp_path, "mono")) == [
        ("bench/core/search_loop.py", 2, "TRN241", ""),  # run_search.py imports core.search_loop
        # bench's copy of the training loop: the only import naming its file name is nas's lib.core.train_loop
        ("bench/core/train_loop.py", 5, "TRN241", DEAD),
        # nas imports a models.net that is no file of nas: bench's models/ is not made a package by it
        ("bench/models/net.py", 5, "TRN241", ""),
        ("nas/lib/core/train_loop.py", 5, "TRN241", ""),  # imported as lib.core.train_loop by nas/cli/retrain.py
        ("nas/lib/core/warmup_loop.py", 5, "TRN241", DEAD),  # its sibling in lib/core, which nothing imports
        ("seg/kept_pkg/blocks.py", 5, "TRN241", ""),  # a nested package a script of seg imports
        # a nested package nothing outside it imports (its modules import each other, one has a self-check)
        ("seg/seg_copy/model/head.py", 9, "TRN191", DEAD),
        ("seg/seg_copy/utils.py", 6, "TRN241", "never-referenced"),
        ("seg/tool_pkg/blocks.py", 5, "TRN241", ""),  # nothing imports it, but a tool inside it runs by hand
    ]


def test_an_import_left_commented_out_imports_nothing(tmp_path):
    # mixup-cifar10: `models/__init__.py` keeps `# from .densenet_efficient_multi_gpu import DenseNet190` beside the
    # import it uses; the module nothing else names is dead. A mention in code (a string, an import) keeps it.
    root = tmp_path / "proj"
    (root / "models").mkdir(parents=True)
    (root / "models" / "__init__.py").write_text(
        "from .densenet3 import DenseNet190\n# from .densenet_efficient_multi_gpu import DenseNet190\n"
        "from .resnet import ResNet  # not from .preact_resnet\n")
    (root / "models" / "densenet3.py").write_text(
        "import torch\n\n\ndef DenseNet190():\n    return torch.nn.Linear(2, 2)\n")
    for name in ("densenet_efficient_multi_gpu", "preact_resnet", "resnet"):
        (root / "models" / f"{name}.py").write_text(
            f"import torch\n\n\ndef build_{name}():\n    return torch.nn.Linear(2, 2).cuda()\n\n\n"
            f"ResNet = build_{name}\n")
    (root / "train.py").write_text("import models\n\nnet = models.DenseNet190()\n")
    got = [row for row in findings(root) if row[0].startswith("models/")]
    assert got == [("models/densenet_efficient_multi_gpu.py", 5, "TRN241", DEAD),
                   ("models/preact_resnet.py", 5, "TRN241", DEAD),
                   ("models/resnet.py", 5, "TRN241", "")]


def test_a_library_dotted_name_does_not_name_the_projects_module(tmp_path):
    # awesome-semantic-segmentation keeps PyTorch-Encoding's `core/utils/parallel.py`, which nothing imports; its
    # other files say `nn.parallel.DistributedDataParallel` and `torch.nn.parallel`, torch's module of that name
    root = tmp_path / "proj"
    (root / "core" / "utils").mkdir(parents=True)
    (root / "core" / "__init__.py").write_text("")
    (root / "core" / "utils" / "__init__.py").write_text("from .score import SegmentationMetric\n")
    (root / "core" / "utils" / "score.py").write_text("import torch\n\n\nclass SegmentationMetric:\n    pass\n")
    for name in ("parallel", "sync"):
        (root / "core" / "utils" / f"{name}.py").write_text(
            "import torch\n\n\nclass DataParallelModel(torch.nn.Module):\n"
            "    def forward(self, x):\n        return x.cuda()\n")
    (root / "train.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom core.utils import SegmentationMetric\n\n"
        "model = nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2))\n"
        "ddp = torch.nn.parallel.DataParallel  # torch's parallel module\n"
        "mode = 'sync'  # a string names the project's sync.py\n"
        "# DataParallelModel balances memory across GPUs\n")
    got = [row for row in findings(root) if row[0].startswith("core/")]
    assert got == [("core/utils/parallel.py", 6, "TRN241", DEAD), ("core/utils/sync.py", 6, "TRN241", "")]


def test_a_root_module_nothing_names_is_dead_without_packaging(tmp_path):
    # mellotron (fresh51): fp16_optimizer.py at the root, a copy of Apex's FP16_Optimizer nothing imports, beside a
    # train.py that imports model.py. Look-alikes: model.py (imported), a script with a `__main__` check, a module a
    # shell script names, and the same dead module in a repository whose root packaging installs its modules.
    cuda = "import torch\n\n\ndef half(x):\n    return x.cuda().half()\n"
    (tmp_path / "fp16_optimizer.py").write_text(cuda)
    (tmp_path / "model.py").write_text(cuda)
    (tmp_path / "export.py").write_text(cuda + '\n\nif __name__ == "__main__":\n    half(torch.zeros(1))\n')
    (tmp_path / "helpers.py").write_text(cuda)
    (tmp_path / "run.sh").write_text("python -c 'import helpers'\n")
    (tmp_path / "train.py").write_text("from model import half\n")
    assert findings(tmp_path) == [
        ("export.py", 5, "TRN241", ""),
        ("fp16_optimizer.py", 5, "TRN241", DEAD),
        ("helpers.py", 5, "TRN241", "never-referenced"),  # named by run.sh; its function by nothing
        ("model.py", 5, "TRN241", ""),
    ]
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x', py_modules=['fp16_optimizer'])\n")
    # installed as a module of the distribution (py_modules): not judged by this step (its unused function is
    # still never-referenced)
    assert ("fp16_optimizer.py", 5, "TRN241", "never-referenced") in findings(tmp_path)


def test_root_modules_of_a_project_unpickling_whole_models_are_not_judged(tmp_path):
    # FastSpeech: `torch.load(waveglow_path)['model']` unpickles NVIDIA's WaveGlow, whose class lives in the root
    # `glow.py` that no import names: the checkpoint names the module
    cuda = "import torch\n\n\nclass WaveGlow(torch.nn.Module):\n    def infer(self, x):\n        return x.cuda()\n"
    (tmp_path / "glow.py").write_text(cuda)
    (tmp_path / "model.py").write_text("import torch\n\n\ndef build():\n    return torch.nn.Linear(2, 2)\n")
    (tmp_path / "utils.py").write_text("import torch\n\n\ndef get_waveglow(path):\n"
                                       "    return torch.load(path)['model']\n")
    (tmp_path / "train.py").write_text("from model import build\nfrom utils import get_waveglow\n")
    assert ("glow.py", 6, "TRN241", "") in findings(tmp_path)


def test_a_stale_sub_package_nothing_outside_imports_is_dead(tmp_path):
    # fresh59 class (X-Decoder): `modeling/body/decoder/` is an older copy of `modeling/interface/`, and the live head
    # imports the interface. Its modules' words appear elsewhere: the live package's own `from .modules import ...`
    # (which loads modeling/interface/modules.py), `self.modules()`, a prose string, a config value naming the
    # project ("xdecoder") and the README. None of them imports the copy, so its findings are guarded; the live
    # copy's stay. Look-alike: `modeling/plugin/`, named by a dotted string in a config module (`custom_imports`).
    root = tmp_path / "proj"
    for folder in ("modeling/interface", "modeling/body/decoder", "modeling/plugin", "configs"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for folder in ("modeling", "modeling/interface", "modeling/body", "modeling/body/decoder", "modeling/plugin"):
        (root / folder / "__init__.py").write_text("")
    layer = "import torch\n\n\nclass SelfAttentionLayer(torch.nn.Module):\n    def forward(self, x):\n" \
            "        return x.cuda()\n"
    (root / "modeling/interface/modules.py").write_text(layer)
    (root / "modeling/interface/xdecoder.py").write_text("from .modules import SelfAttentionLayer\n")
    (root / "modeling/body/decoder/modules.py").write_text(layer)
    (root / "modeling/body/decoder/xdecoder.py").write_text("from .modules import SelfAttentionLayer\n")
    (root / "modeling/body/decoder/__init__.py").write_text("from .xdecoder import *\n")
    (root / "modeling/plugin/modules.py").write_text("import torch\n\nDEVICE = torch.device('cuda')\n")
    (root / "modeling/body/head.py").write_text(
        "from ..interface.xdecoder import SelfAttentionLayer\n\n\nclass Head:\n    def init(self):\n"
        "        for m in self.modules():\n            print('all modules are set')\n")
    (root / "train.py").write_text(
        "import yaml\nfrom modeling.body.head import Head\n\nopt = yaml.safe_load(open('configs/run.yaml'))\n"
        "if opt['TRAINER'] == 'xdecoder':\n    Head()\n")
    (root / "configs/run.yaml").write_text("TRAINER: xdecoder\n")
    (root / "configs/plugin.py").write_text("custom_imports = dict(imports=['modeling.plugin.modules'])\n")
    (root / "README.md").write_text("X-Decoder: see xdecoder and its modules.\n")
    got = [row for row in findings(root) if row[0].startswith("modeling/")]
    assert got == [("modeling/body/decoder/modules.py", 6, "TRN241", DEAD),
                   ("modeling/interface/modules.py", 6, "TRN241", ""),
                   ("modeling/plugin/modules.py", 3, "TRN242", "")]


def _loose_app(dest, readme: str = "", packaging: str = ""):
    (dest / "src" / "models").mkdir(parents=True)
    (dest / "src" / "archive").mkdir()
    (dest / "src" / "train.py").write_text(
        "import torch\nfrom models.net import Net\n\nif __name__ == '__main__':\n    Net().cuda()\n")
    (dest / "src" / "models" / "__init__.py").write_text("")
    (dest / "src" / "models" / "net.py").write_text("import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n")
    (dest / "src" / "archive" / "old_ddp.py").write_text(
        "import torch\n\n\ndef reduce_all():\n    return torch.cuda.device_count()\n")
    (dest / "src" / "archive" / "sweep.py").write_text(
        "import torch\n\nfor d in range(torch.cuda.device_count()):\n    print(d)\n")
    if readme:
        (dest / "README.md").write_text(readme)
    if packaging:
        (dest / "setup.py").write_text(packaging)
    return dest


def test_a_loose_module_of_an_application_nothing_names_is_dead(tmp_path):
    # ps_pytorch (fresh80) runs its scripts from src/ and keeps an archived copy of PyTorch 0.3's DDP in
    # src/data_parallel_dist/, a folder without __init__.py whose module only defines things and whose file name
    # no file of any kind names: nothing can import it, and running it would do nothing. A loose script (a loop at
    # its top level) stays: it is run by hand.
    assert findings(_loose_app(tmp_path / "app")) == [
        ("src/archive/old_ddp.py", 5, "TRN243", DEAD),
        ("src/archive/sweep.py", 3, "TRN243", ""),
        ("src/train.py", 5, "TRN241", ""),
    ]


def test_a_loose_module_a_readme_names_or_a_package_installs_stays(tmp_path):
    named = findings(_loose_app(tmp_path / "named", readme="`src/archive/old_ddp.py` reduces across GPUs.\n"))
    assert ("src/archive/old_ddp.py", 5, "TRN243", "") in named
    installed = findings(_loose_app(tmp_path / "installed", packaging="from setuptools import setup\nsetup()\n"))
    assert ("src/archive/old_ddp.py", 5, "TRN243", "") in installed
