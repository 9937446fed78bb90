"""Report step implicit-relative-imports (trnready/project/implicit_relative.py), through the real CLI."""
import json
import shutil

from conftest import FIXTURES, run_cli


def _places(dest) -> list:
    """(path, line) of the TRN324 findings of a scan of `dest`."""
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--select", "TRN324")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"]]


def test_a_package_module_importing_its_sibling_without_a_dot(tmp_path):
    # models/__init__.py and models/resnet.py (imported as models.resnet) name their siblings as if top-level: Python
    # 2 only. tools/run.py is a script (nothing imports it through its package); train.py puts lib/ on sys.path
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "implicit_relative", dest)
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--select", "TRN324")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["message"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("models/__init__.py", 1, 6, "Python 2 module (an implicit relative import: Python 3 looks `resnet` up on "
                                     "sys.path, not beside the module): `resnet`", []),
        ("models/resnet.py", 3, 6, "Python 2 module (an implicit relative import: Python 3 looks `blocks` up on "
                                   "sys.path, not beside the module): `blocks`", []),
    ]


def test_a_module_with_python_2_lines_lists_the_import_as_a_place(tmp_path):
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "implicit_relative", dest)
    (dest / "models" / "resnet.py").write_text("import torch\n\nfrom blocks import Block\n\nprint 'resnet'\n")
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--select", "TRN324")
    got = [(f["path"], f["line"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["path"] == "models/resnet.py"]
    assert got == [("models/resnet.py", 5, [3])]


def test_a_library_named_like_a_sibling_is_the_library(tmp_path):
    # diffusers' loaders/lora_base.py imports `from peft import ...` beside its own loaders/peft.py, which defines none
    # of those names: Python 3 imports the library, as intended
    dest = tmp_path / "repo"
    (dest / "loaders").mkdir(parents=True)
    (dest / "loaders" / "__init__.py").write_text("from .lora_base import load\n")
    (dest / "loaders" / "peft.py").write_text("class PeftAdapterMixin:\n    pass\n")
    (dest / "loaders" / "lora_base.py").write_text("from peft import get_peft_model_state_dict\n\n\ndef load():\n"
                                                   "    return get_peft_model_state_dict\n")
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--select", "TRN324")
    assert json.loads(proc.stdout)["findings"] == []


def test_a_sibling_wrapping_the_library_of_its_name_makes_the_import_the_library(tmp_path):
    # ReAgent's reagent/gym/envs/gym.py imports `gym` itself (a wrapper of the OpenAI package, whose names it also
    # reads), so its neighbours' `import gym` means the package too; a sibling that does not is still reported
    dest = tmp_path / "repo"
    (dest / "envs").mkdir(parents=True)
    (dest / "envs" / "__init__.py").write_text("from .toy import Toy\nfrom .grid import Grid\n")
    (dest / "envs" / "gym.py").write_text("import gym\nfrom gym import spaces\n\n\nclass Gym:\n"
                                          "    space = spaces.Discrete(2)\n")
    (dest / "envs" / "toy.py").write_text("import gym\n\n\nclass Toy(gym.Env):\n    space = gym.spaces.Discrete(2)\n")
    (dest / "envs" / "cells.py").write_text("class Cell:\n    pass\n")
    (dest / "envs" / "grid.py").write_text("import cells\n\n\nclass Grid(cells.Cell):\n    pass\n")
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--select", "TRN324")
    got = [(f["path"], f["line"], f["column"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("envs/grid.py", 1, 8)]


def test_a_module_asking_for_absolute_imports_means_the_top_level_package(tmp_path):
    # pytorch-tools' optim/__init__.py (fresh75): `from __future__ import absolute_import`, then `from adamp import
    # AdamP` beside a sibling adamp.py means the published adamp package; models/resnet.py still names its sibling
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "implicit_relative", dest)
    init = dest / "models" / "__init__.py"
    init.write_text("from __future__ import absolute_import, print_function\n" + init.read_text())
    got = _places(dest)
    assert got == [("models/resnet.py", 3)]


def test_a_module_putting_its_own_folder_on_sys_path_finds_its_sibling(tmp_path):
    # pytorch_workspace's yolov3/model/build_model.py (fresh76): `filedir = os.path.dirname(os.path.abspath(__file__))`
    # and `sys.path.insert(0, filedir)` before `from build_target import ...`; models/__init__.py putting only the
    # parent folder there (`os.path.join(..., "..")`) still names its sibling as Python 2 did
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "implicit_relative", dest)
    resnet = dest / "models" / "resnet.py"
    resnet.write_text("import os\nimport sys\nfiledir = os.path.dirname(os.path.abspath(__file__))\n"
                      "sys.path.insert(0, filedir)\n" + resnet.read_text())
    init = dest / "models" / "__init__.py"
    init.write_text(init.read_text() + "import os\nimport sys\n"
                    "sys.path.append(os.path.join(os.path.dirname(__file__), '..'))\n")
    got = _places(dest)
    assert got == [("models/__init__.py", 1)]


def test_an_import_whose_failure_a_handler_catches_is_no_python_2_module(tmp_path):
    # YOLOv5's utils/loggers/__init__.py (Luhuanz/pytorch_project, fresh77): `try: import wandb` beside its own
    # `loggers/wandb/` folder, `except (ImportError, AssertionError): wandb = None`; on Python 3 the import means the
    # installed package, and where that fails the handler binds a fallback (optional-gpu-import's reading,
    # kernel_calls.falls_back). An `except ValueError:` catches no failed import, and a handler that only passes
    # leaves the module without the names it imports.
    def scan(handler: str) -> list:
        dest = tmp_path / handler.split()[0]
        shutil.copytree(FIXTURES / "implicit_relative", dest)
        init = dest / "models" / "__init__.py"
        text = init.read_text()
        init.write_text("try:\n    " + text.rstrip("\n").replace("\n", "\n    ")
                        + "\nexcept (ImportError, AssertionError):\n    " + handler + "\n")
        resnet = dest / "models" / "resnet.py"
        lines = resnet.read_text().splitlines()
        resnet.write_text("\n".join(lines[:2] + ["try:", "    " + lines[2], "except ValueError:", "    pass"]
                                    + lines[3:]) + "\n")
        return _places(dest)

    assert scan("Block = None") == [("models/resnet.py", 4)]
    assert scan("pass") == [("models/__init__.py", 2), ("models/resnet.py", 4)]


def test_an_import_in_the_module_s_main_block_finds_its_sibling_when_run(tmp_path):
    # transformer_pytorch's model/PositionalEncoding.py (fresh80): the module's plotting demo under
    # `if __name__ == '__main__':` imports `from utils.get_torch_device import ...`, the folder's own utils/. That block
    # runs only when the file is executed as a script, with its folder first on sys.path, where Python 3 finds the
    # sibling too. The same import above the block is read when the package imports the module, and stays.
    dest = tmp_path / "repo"
    shutil.copytree(FIXTURES / "implicit_relative", dest)
    resnet = dest / "models" / "resnet.py"
    lines = resnet.read_text().splitlines()
    demo = ["", "", "if __name__ == '__main__':", "    from blocks import Block", "    print(Block)"]
    resnet.write_text("\n".join([ln for ln in lines if not ln.startswith("from blocks")] + demo) + "\n")
    assert _places(dest) == [("models/__init__.py", 1)]
    resnet.write_text("\n".join(lines + demo) + "\n")
    assert _places(dest) == [("models/__init__.py", 1), ("models/resnet.py", 3)]
