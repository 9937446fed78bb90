"""Modules whose top-level import of the project's own code names a missing module
(trnready/project/broken_imports.py), through the real CLI.

The fixtures are copied out of this repository first: a scan whose root lies inside a project sees part of it
only, and the step then judges nothing."""
import json
import shutil

from conftest import FIXTURES, guard_reasons, run_cli

ROOT = FIXTURES / "broken_imports"
BROKEN = "broken-import"


def test_modules_importing_missing_project_modules_are_guarded(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree)
    proc = run_cli("scan", tree, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    got = sorted((f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in report["findings"])
    assert got == [
        # a relative import in a folder without __init__.py: loose/gone.py is not there, and as a script the file
        # has no parent package at all (wanda's dense_ft/trainer.py, a copy of HF's Trainer; session 31)
        ("loose/helper.py", 5, "TRN241", BROKEN),
        ("pkg/after_install.py", 8, "TRN241", ""),  # after `sys.path.insert(...)`: resolution may differ
        ("pkg/broken.py", 6, "TRN241", BROKEN),  # `from pkg.base_model import ...`: no such module
        ("pkg/documented.py", 9, "TRN241", ""),  # a docstring example; `from pkg import name` may be a name
        ("pkg/external.py", 5, "TRN241", ""),  # torchvision is not the project's own package
        # names the modules have: a submodule, a name of a module with a module __getattr__, a parenthesised list
        ("pkg/fine_names.py", 9, "TRN241", ""),
        ("pkg/generated.py", 7, "TRN241", ""),  # version, *_pb2 and a Cython module are written by the build
        ("pkg/good.py", 5, "TRN241", ""),
        ("pkg/module_attrs.py", 9, "TRN241", ""),  # `from pkg import __file__`: every module has it
        ("pkg/rel_broken.py", 5, "TRN241", BROKEN),  # relative: pkg/layers/ does not exist
        ("pkg/soft.py", 8, "TRN241", ""),  # under try: the import fails softly
        # `from pkg.util import removed_helper`: pkg/util.py never mentions it (judged after a sys.path call too)
        ("pkg/stale_names.py", 9, "TRN241", BROKEN),
        ("pkg/sub/deep.py", 5, "TRN241", ""),  # climbs out of the project's packages: not judged
        # a name built at run time: pkg/registered.py appends computed names to __all__ (inferno's Conv2D)
        ("pkg/uses_registered.py", 7, "TRN241", ""),
        # `from llama.adapter import ...`: the root's llama/ has no adapter, the script's own folder's does
        ("subproject/finetune.py", 6, "TRN241", ""),
        # a namespace package (no __init__.py) whose module lacks the imported name
        ("tools_eval.py", 7, "TRN241", BROKEN),
    ]


def test_a_package_dir_alias_of_the_root_packaging_is_no_missing_module(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "broken_imports_aliased", tree)
    proc = run_cli("scan", tree, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    # a module below a mapped package (`lib.tools.train` is tools/train.py) is no missing module either
    assert got == [("lib/ext/head.py", 5, "TRN241", ""), ("scripts/visualize.py", 6, "TRN241", "")]


def test_a_partial_scan_judges_nothing():
    # scanned in place, the fixture lies inside this repository: what it imports may sit outside the scanned folder
    assert BROKEN not in guard_reasons(ROOT)


def test_a_module_a_setup_extension_builds_is_not_missing(tmp_path):
    # py-faster-rcnn's `lib/setup.py` builds `utils.cython_bbox` from `utils/bbox.pyx`: the import of it is not broken
    # (longcw/faster_rcnn_pytorch, blind48); a module no Extension names stays missing
    root = tmp_path / "repo"
    lib = root / "lib"
    (lib / "utils").mkdir(parents=True)
    (lib / "datasets").mkdir()
    for pkg in (lib, lib / "utils", lib / "datasets"):
        (pkg / "__init__.py").write_text("")
    (lib / "utils" / "bbox.pyx").write_text("def bbox_overlaps(a, b):\n    return a\n")
    (lib / "setup.py").write_text(
        "from setuptools import setup\nfrom setuptools.extension import Extension\n"
        "setup(name='lib', ext_modules=[Extension('utils.cython_bbox', ['utils/bbox.pyx'])])\n")
    body = "import torch\n\n\ndef load(x):\n    return torch.zeros(2).cuda()\n"
    (lib / "datasets" / "imdb.py").write_text("from ..utils.cython_bbox import bbox_overlaps\n" + body)
    (lib / "datasets" / "voc.py").write_text("from ..utils.cython_gone import bbox_overlaps\n" + body)
    (root / "train.py").write_text("from lib.datasets import imdb, voc\n\nimdb.load(1)\nvoc.load(1)\n")
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
                 if f["rule"] == "TRN241")
    assert got == [("lib/datasets/imdb.py", 6, ""), ("lib/datasets/voc.py", 6, BROKEN)]


def test_the_library_a_torch_ffi_build_writes_is_not_missing(tmp_path):
    # Detectron.pytorch's `lib/model/nms/build.py` runs `create_extension("_ext.nms", ...)`; the loader torch.utils.ffi
    # generates, `_ext/nms/__init__.py`, imports `from ._nms import lib` (blind48)
    root = tmp_path / "repo"
    nms = root / "lib" / "model" / "nms"
    (nms / "_ext" / "nms").mkdir(parents=True)
    for pkg in (root / "lib", root / "lib" / "model", nms, nms / "_ext"):
        (pkg / "__init__.py").write_text("")
    (nms / "build.py").write_text("from torch.utils.ffi import create_extension\n"
                                  "ffi = create_extension('_ext.nms', headers=[], sources=[], with_cuda=True)\n"
                                  "if __name__ == '__main__':\n    ffi.build()\n")
    (nms / "_ext" / "nms" / "__init__.py").write_text(
        "from torch.utils.ffi import _wrap_function\nfrom ._nms import lib as _lib, ffi as _ffi\n")
    (root / "train.py").write_text("from lib.model.nms._ext import nms\n")
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"])
    assert got == [("lib/model/nms/_ext/nms/__init__.py", 1, "TRN302", ""),
                   ("lib/model/nms/build.py", 1, "TRN302", "")]


def test_a_torch_ffi_build_four_folders_down(tmp_path):
    # PWC-Net keeps three copies of its correlation package at PyTorch/external_packages/<copy>/<package>/build.py
    root = tmp_path / "repo"
    pkg = root / "PyTorch" / "external_packages" / "corr-master" / "corr"
    (pkg / "corr_package" / "_ext" / "corr").mkdir(parents=True)
    (pkg / "build.py").write_text("from torch.utils.ffi import create_extension\n"
                                  "ffi = create_extension('corr_package._ext.corr', headers=[], sources=[])\n")
    for p in (pkg / "corr_package", pkg / "corr_package" / "_ext"):
        (p / "__init__.py").write_text("")
    (pkg / "corr_package" / "_ext" / "corr" / "__init__.py").write_text(
        "from torch.utils.ffi import _wrap_function\nfrom ._corr import lib as _lib, ffi as _ffi\n")
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted((f["path"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
                 if f["rule"] == "TRN302")
    assert got == [("PyTorch/external_packages/corr-master/corr/build.py", 1, ""),
                   ("PyTorch/external_packages/corr-master/corr/corr_package/_ext/corr/__init__.py", 1, "")]
