"""Copies of other projects nested in the tree that the repository never runs (trnready/project/nested.py,
nested_live.py): CI below the root, unused nested projects, unreached packages and manifests of a copy reached by
its path. Fixtures: tests/fixtures/nested_projects/<repo>/, annotated inline: `# expect: TRNxxx` must be reported,
`# guarded: REASON TRNxxx` must be guarded with that reason; every other finding is a failure."""
import json
import re

import pytest
from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "nested_projects"
_EXPECT = re.compile(r"#\s*expect:\s*(TRN\d+)")
_GUARDED = re.compile(r"#\s*guarded:\s*([a-z-]+)\s+(TRN\d+)")
CUDA_CODE = "import torch\n\n\ndef run(x):\n    return x.cuda()\n"


def _annotations(root):
    out = set()
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix == ".md":
            continue
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if m := _EXPECT.search(line):
                out.add((rel, n, m.group(1), None))
            elif m := _GUARDED.search(line):
                out.add((rel, n, m.group(2), m.group(1)))
    return out


def _findings(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return {(f["path"], f["line"], f["rule"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]
            if not f.get("suppressed")}


@pytest.mark.parametrize("repo", ["ci", "unused", "hubcopy", "hubnamespace", "hubimported", "copyfork", "copyexamples",
                                  "licensedcopy", "copiedtools", "installedcopy", "installedlib",
                                  "toplevel_tools"])
def test_fixture_repositories(repo):
    assert _findings(ROOT / repo) == _annotations(ROOT / repo)


def _write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_clone_of_its_own_keeps_its_ci(tmp_path):
    # a scan of a folder holding several clones: each `.git` directory is a repository root, its CI runs
    wf = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
          "      - run: pip install torch --index-url https://download.pytorch.org/whl/cu121\n")
    _write(tmp_path, "clone/.github/workflows/t.yml", wf)
    (tmp_path / "clone" / ".git").mkdir()
    _write(tmp_path, "copy/.github/workflows/t.yml", wf)
    assert _findings(tmp_path) == {("clone/.github/workflows/t.yml", 6, "TRN505", None),
                                   ("copy/.github/workflows/t.yml", 6, "TRN505", "nested-ci")}


def _hub_copy(root):
    _write(root, "model.py", "import torch\n\n\ndef load():\n    return torch.hub.load('hub/lib_main', 'net', "
                             "source='local')\n")
    _write(root, "hub/lib_main/setup.py", "from setuptools import setup\n\nsetup(name='lib')\n")
    _write(root, "hub/lib_main/lib/__init__.py", "")
    _write(root, "hub/lib_main/lib/train/__init__.py", "")
    _write(root, "hub/lib_main/lib/train/loop.py", CUDA_CODE)


def test_a_computed_import_in_a_reached_module_keeps_every_package(tmp_path):
    _hub_copy(tmp_path)
    _write(tmp_path, "hub/lib_main/hubconf.py", "import importlib\n\n\ndef net(kind='vit'):\n"
                                                "    return importlib.import_module('lib.' + kind).Net()\n")
    assert _findings(tmp_path) == {("hub/lib_main/lib/train/loop.py", 5, "TRN241", None)}
    # the same copy whose scripts import nothing of `lib`: its training package is never reached
    _write(tmp_path, "hub/lib_main/hubconf.py", "def net():\n    return None\n")
    assert _findings(tmp_path) == {("hub/lib_main/lib/train/loop.py", 5, "TRN241", "unused-nested-package")}


def test_a_copy_installed_by_a_setup_script_keeps_its_packages(tmp_path):
    # a packaging file naming the folder maps it into a distribution: its packages are that distribution's API
    _hub_copy(tmp_path)
    _write(tmp_path, "hub/lib_main/hubconf.py", "def net():\n    return None\n")
    _write(tmp_path, "setup.py", "from setuptools import setup\n\nsetup(name='x', package_dir={'lib': "
                                 "'hub/lib_main/lib'})\n")
    assert _findings(tmp_path) == {("hub/lib_main/lib/train/loop.py", 5, "TRN241", None)}


def test_a_folder_named_only_by_documentation_or_prose_is_unused(tmp_path):
    _write(tmp_path, "det/setup.py", "from setuptools import setup\n\nsetup(name='det')\n")
    _write(tmp_path, "det/core/__init__.py", '"""Shared by the Pose project."""\nNOTE = "see Pose for keypoints"\n')
    _write(tmp_path, "det/README.md", "Run `python projects/Pose/train.py`.\n")
    _write(tmp_path, "det/projects/Pose/setup.py", "from setuptools import setup\n\nsetup(name='pose')\n")
    _write(tmp_path, "det/projects/Pose/train.py", CUDA_CODE)
    assert _findings(tmp_path) == {("det/projects/Pose/train.py", 5, "TRN241", "unused-nested-project")}
    # a launcher naming its path makes it used
    _write(tmp_path, "det/run.sh", "python projects/Pose/train.py\n")
    assert _findings(tmp_path) == {("det/projects/Pose/train.py", 5, "TRN241", None)}


def test_a_hub_copy_a_launcher_names_keeps_its_packages(tmp_path):
    # a shell script naming the copy may install it or run its training: nothing of it is guarded
    _hub_copy(tmp_path)
    _write(tmp_path, "hub/lib_main/hubconf.py", "def net():\n    return None\n")
    _write(tmp_path, "train.sh", "cd hub/lib_main && python -m lib.train.loop\n")
    assert _findings(tmp_path) == {("hub/lib_main/lib/train/loop.py", 5, "TRN241", None)}


def _installed_copy(root, licence="MIT License\n\nCopyright (c) the library authors.\n"):
    _write(root, "LICENSE", "BSD License\n\nCopyright (c) the app authors.\n")
    _write(root, "app/model.py", "from vendorlib.model import net\n")
    _write(root, "env/lib/LICENSE", licence)
    _write(root, "env/lib/setup.py", "from setuptools import setup\n\nsetup(name='vendorlib')\n")
    _write(root, "env/lib/vendorlib/__init__.py", "")
    _write(root, "env/lib/vendorlib/model/__init__.py", "")
    _write(root, "env/lib/vendorlib/model/net.py", CUDA_CODE)
    _write(root, "env/lib/vendorlib/train/__init__.py", "")
    _write(root, "env/lib/vendorlib/train/loop.py", CUDA_CODE)


def test_an_installed_copy_keeps_what_the_repository_reaches(tmp_path):
    _installed_copy(tmp_path)
    assert _findings(tmp_path) == {("env/lib/vendorlib/model/net.py", 5, "TRN241", None),
                                   ("env/lib/vendorlib/train/loop.py", 5, "TRN241", "unused-nested-package")}


def test_an_installed_copy_that_installs_commands_keeps_every_package(tmp_path):
    # a console script runs modules no import shows (DGL-KE's `dglke_train`)
    _installed_copy(tmp_path)
    _write(tmp_path, "env/lib/setup.py", "from setuptools import setup\n\nsetup(name='vendorlib', entry_points="
                                         "{'console_scripts': ['vtrain=vendorlib.train.loop:run']})\n")
    assert _findings(tmp_path) == {("env/lib/vendorlib/model/net.py", 5, "TRN241", None),
                                   ("env/lib/vendorlib/train/loop.py", 5, "TRN241", None)}


def test_a_sub_project_under_the_root_licence_is_the_repository_own(tmp_path):
    _installed_copy(tmp_path, licence="BSD License\n\nCopyright (c) the app authors.\n")
    assert _findings(tmp_path) == {("env/lib/vendorlib/model/net.py", 5, "TRN241", None),
                                   ("env/lib/vendorlib/train/loop.py", 5, "TRN241", None)}


def test_a_module_named_outside_the_copy_is_reached(tmp_path):
    # `python -m vendorlib.train.loop` in a launcher, or a dotted name in a config, runs the module
    _installed_copy(tmp_path)
    _write(tmp_path, "run.sh", "python -m vendorlib.train.loop --epochs 3\n")
    assert _findings(tmp_path) == {("env/lib/vendorlib/model/net.py", 5, "TRN241", None),
                                   ("env/lib/vendorlib/train/loop.py", 5, "TRN241", None)}


def test_a_computed_import_in_a_reached_module_keeps_the_installed_copy(tmp_path):
    _installed_copy(tmp_path)
    _write(tmp_path, "env/lib/vendorlib/model/__init__.py", "import importlib\n\n\ndef part(name):\n"
                                                            "    return importlib.import_module('vendorlib.' + name)\n")
    assert _findings(tmp_path) == {("env/lib/vendorlib/model/net.py", 5, "TRN241", None),
                                   ("env/lib/vendorlib/train/loop.py", 5, "TRN241", None)}


def test_a_top_level_installed_copy_keeps_what_the_repository_reaches(tmp_path):
    # MapTR's `mmdetection3d/`: the copy's tools and configs nothing names are its own launchers
    _write(tmp_path, "LICENSE", "MIT License\n\nCopyright (c) the app authors.\n")
    _write(tmp_path, "plugin/__init__.py", "from det3d.models import build\n")
    _write(tmp_path, "det3d_copy/LICENSE", "Apache License\n\nCopyright (c) the library authors.\n")
    _write(tmp_path, "det3d_copy/setup.py", "from setuptools import setup\n\nsetup(name='det3d')\n")
    _write(tmp_path, "det3d_copy/det3d/__init__.py", "")
    _write(tmp_path, "det3d_copy/det3d/models.py", CUDA_CODE)
    _write(tmp_path, "det3d_copy/tools/benchmark.py", CUDA_CODE)
    assert _findings(tmp_path) == {("det3d_copy/det3d/models.py", 5, "TRN241", None),
                                   ("det3d_copy/tools/benchmark.py", 5, "TRN241", "unused-nested-script")}


def test_an_installed_copy_whose_package_bears_its_folder_name_keeps_what_the_repository_reaches(tmp_path):
    # miles_diffusion keeps flow_grpo's clone in `flow_grpo/` (its own setup.py and MIT licence), package
    # `flow_grpo/flow_grpo/`, and imports three of its modules: the clone's trainers and its Bagel model are not run
    _write(tmp_path, "LICENSE", "Apache License\n\nCopyright (c) the app authors.\n")
    _write(tmp_path, "app/rollout.py", "from flowlib.rewards import score\n")
    _write(tmp_path, "flowlib/LICENSE", "MIT License\n\nCopyright (c) the library authors.\n")
    _write(tmp_path, "flowlib/setup.py", "from setuptools import setup, find_packages\n\nsetup(name='flowlib', "
                                         "packages=find_packages())\n")
    _write(tmp_path, "flowlib/flowlib/__init__.py", "")
    _write(tmp_path, "flowlib/flowlib/rewards.py", CUDA_CODE)
    _write(tmp_path, "flowlib/flowlib/bagel/__init__.py", "")
    _write(tmp_path, "flowlib/flowlib/bagel/model.py", CUDA_CODE)
    _write(tmp_path, "flowlib/scripts/train.py", CUDA_CODE)
    assert _findings(tmp_path) == {("flowlib/flowlib/rewards.py", 5, "TRN241", None),
                                   ("flowlib/flowlib/bagel/model.py", 5, "TRN241", "unused-nested-package"),
                                   ("flowlib/scripts/train.py", 5, "TRN241", "unused-nested-script")}


def test_a_program_folder_no_import_can_spell_inside_a_package_is_unused(tmp_path):
    main = "import torch\nfrom utils import load\n\nif __name__ == '__main__':\n    load().cuda()\n"
    _write(tmp_path, "reid/__init__.py", "from . import utils\n")
    _write(tmp_path, "reid/utils/__init__.py", "from .tools import load\n")
    _write(tmp_path, "reid/utils/tools.py", "def load():\n    return None\n")
    _write(tmp_path, "reid/utils/GPU-Re-Ranking/main.py", main)
    _write(tmp_path, "reid/utils/GPU-Re-Ranking/utils.py", CUDA_CODE)
    # the package's own `utils` and `load` are no use of the folder's `utils.py` / `main.py`
    assert _findings(tmp_path) == {("reid/utils/GPU-Re-Ranking/main.py", 5, "TRN241", "unused-nested-project"),
                                   ("reid/utils/GPU-Re-Ranking/utils.py", 5, "TRN241", "unused-nested-project")}
    # a launcher naming its path makes it used
    _write(tmp_path, "run.sh", "python reid/utils/GPU-Re-Ranking/main.py\n")
    assert {f[3] for f in _findings(tmp_path)} == {None}
    # without an entry script it is a folder of the package's files, judged as such
    (tmp_path / "run.sh").unlink()
    (tmp_path / "reid/utils/GPU-Re-Ranking/main.py").write_text("import torch\n")
    assert {f[3] for f in _findings(tmp_path)} == {None}


def _tree(root, files: dict) -> None:
    for rel, text in files.items():
        _write(root, rel, text)


SETUP = "from setuptools import setup\n\nsetup(name='{}')\n"
PACKAGES = {"app/__init__.py": "", "app/lib/__init__.py": "", "app/lib/zoo/__init__.py": ""}


def _package_copy(root, user: str):
    # DeepFaceLab keeps insightface's SCRFD detector (its own setup.py, an mmdet copy) inside the package
    # `faceswap/insightface/`, and imports the package's module of the same name, never the copy
    _tree(root, {**PACKAGES, "app/lib/zoo/det.py": "class Det:\n    pass\n",
                 "app/lib/detection/det/setup.py": SETUP.format("mmdet"),
                 "app/lib/detection/det/mmdet/__init__.py": "", "app/lib/detection/det/mmdet/ops.py": CUDA_CODE,
                 "app/main.py": user})


def test_an_installable_project_inside_a_package_nothing_imports_is_unused(tmp_path):
    _package_copy(tmp_path, "from app.lib.zoo.det import Det\n")
    assert _findings(tmp_path) == {("app/lib/detection/det/mmdet/ops.py", 5, "TRN241", "unused-nested-project")}
    # importing the copy's package, or the folder by a path that spells it, keeps it
    _package_copy(tmp_path, "from mmdet.ops import run\n")
    assert _findings(tmp_path) == {("app/lib/detection/det/mmdet/ops.py", 5, "TRN241", None)}
    _package_copy(tmp_path, "from detection.det import mmdet\n")
    assert _findings(tmp_path) == {("app/lib/detection/det/mmdet/ops.py", 5, "TRN241", None)}


def test_an_extension_build_folder_inside_a_package_that_the_package_imports_is_kept(tmp_path):
    # Deformable DETR's `models/ops/` (setup.py building the CUDA op) is imported by `models/` as models.ops.modules
    _tree(tmp_path, {"models/__init__.py": "", "models/sub/__init__.py": "",
                     "models/sub/ops/setup.py": SETUP.format("msda"), "models/sub/ops/modules/__init__.py": "",
                     "models/sub/ops/modules/attn.py": CUDA_CODE,
                     "models/detr.py": "from models.sub.ops.modules import attn\n"})
    assert _findings(tmp_path) == {("models/sub/ops/modules/attn.py", 5, "TRN241", None)}


def test_an_extension_build_folder_inside_a_package_is_the_package_own(tmp_path):
    # ngp_pl's `models/csrc/`: a setup.py building the CUDA extension `vren` beside its sources, imported as `vren`
    _tree(tmp_path, {"models/__init__.py": "", "models/sub/__init__.py": "",
                     "models/sub/csrc/setup.py": "from setuptools import setup\n"
                     "from torch.utils.cpp_extension import CUDAExtension\n\n"
                     "setup(name='vren', ext_modules=[CUDAExtension(name='vren', sources=['vren.cu'])])\n",
                     "models/sub/csrc/vren.cu": "__global__ void k() {}\n", "models/sub/csrc/helpers.py": CUDA_CODE,
                     "models/render.py": "import vren\n"})
    got = _findings(tmp_path)
    assert got and all(g[3] is None for g in got), got
