"""Vendored copies of other projects (third_party/, dependencies/, ...) are guarded, with guarded_by "vendored"."""
import json

from conftest import run_cli

CUDA = "import torch\nx = torch.randn(2).cuda()\n"


def _tree(root):
    (root / "inference" / "dependencies" / "AutoGPTQ" / "kernels").mkdir(parents=True)
    (root / "inference" / "dependencies" / "AutoGPTQ" / "kernels" / "q4.cu").write_text(
        "__global__ void q4(float* x) { x[0] = 1; }\n")
    (root / "inference" / "dependencies" / "AutoGPTQ" / "quant.py").write_text(CUDA)
    (root / "third_party" / "cutlass").mkdir(parents=True)
    (root / "third_party" / "cutlass" / "ops.py").write_text(CUDA)
    (root / "deps").mkdir()
    (root / "deps" / "gpu.py").write_text(CUDA)  # right inside deps/: the project's own file
    (root / "olmo").mkdir()
    (root / "olmo" / "model.py").write_text(CUDA)
    (root / "olmo" / "dependencies.py").write_text(CUDA)  # a module named like the directory: not vendored


def _scan(root, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", *args, cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_vendored_directories_are_guarded_and_say_why(tmp_path):
    _tree(tmp_path)
    report = _scan(tmp_path)
    got = [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by")) for f in report["findings"]]
    assert got == [
        ("deps/gpu.py", 2, "TRN241", False, None),
        ("inference/dependencies/AutoGPTQ/kernels/q4.cu", 1, "TRN601", True, "vendored"),
        ("inference/dependencies/AutoGPTQ/quant.py", 2, "TRN241", True, "vendored"),
        ("olmo/dependencies.py", 2, "TRN241", False, None),
        ("olmo/model.py", 2, "TRN241", False, None),
        ("third_party/cutlass/ops.py", 2, "TRN241", True, "vendored"),
    ]
    assert report["schema_version"] == "1.6"
    text = run_cli("scan", ".", "--no-cache", "--show-guarded", cwd=tmp_path).stdout
    assert "third_party/cutlass/ops.py:2:5 TRN241 [guarded: vendored]" in text


def test_a_scopes_glob_claims_the_directory_as_own_code(tmp_path):
    _tree(tmp_path)
    (tmp_path / "trnready.toml").write_text('[scopes]\n"third_party/**" = "source"\n')
    got = {f["path"]: f["guarded"] for f in _scan(tmp_path)["findings"]}
    assert got["third_party/cutlass/ops.py"] is False and got["inference/dependencies/AutoGPTQ/quant.py"] is True


def test_a_framework_folder_is_the_package_of_the_nested_project_that_installs_it(tmp_path):
    # annotator/uniformer/mmcv/ is pasted in; detection/ installs its own modified mmdet/ with its setup.py, and
    # a cloned mmdetection3d/ (named after the framework) keeps its mmdet3d/ a copy even with packaging
    for folder in ("annotator/uniformer/mmcv", "detection/mmdet/core", "mmdetection3d/mmdet3d/ops"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "gpu.py").write_text(CUDA)
    for package in ("annotator/uniformer/mmcv", "detection/mmdet", "mmdetection3d/mmdet3d"):
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "run.py").write_text("import annotator.uniformer.mmcv.gpu\nimport detection.mmdet.core.gpu\n"
                                     "import mmdetection3d.mmdet3d.ops.gpu\n")
    (tmp_path / "detection" / "setup.py").write_text("from setuptools import setup, find_packages\n"
                                                     "setup(name='mmdet', packages=find_packages())\n")
    (tmp_path / "mmdetection3d" / "setup.py").write_text("from setuptools import setup\nsetup(name='mmdet3d')\n")
    got = {f["path"]: f.get("guarded_by") for f in _scan(tmp_path)["findings"] if f["rule"] == "TRN241"}
    assert got == {"annotator/uniformer/mmcv/gpu.py": "vendored", "detection/mmdet/core/gpu.py": None,
                   "mmdetection3d/mmdet3d/ops/gpu.py": "vendored"}


def test_a_framework_folder_without_its_own_init_is_an_overlay_of_the_project_files(tmp_path):
    # involution ships det/mmdet/models/utils/involution_cuda.py and a few backbones to be copied into an mmdet
    # checkout: det/mmdet/ has no __init__.py, it is the project's own code; seg/mmseg/ with one is a pasted copy
    for folder in ("det/mmdet/models/utils", "seg/mmseg/models/utils"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
        (tmp_path / folder / "gpu.py").write_text(CUDA)
    (tmp_path / "seg" / "mmseg" / "__init__.py").write_text("")
    (tmp_path / "run.py").write_text("import det.mmdet.models.utils.gpu\nimport seg.mmseg.models.utils.gpu\n")
    got = {f["path"]: f.get("guarded_by") for f in _scan(tmp_path)["findings"] if f["rule"] == "TRN241"}
    assert got == {"det/mmdet/models/utils/gpu.py": None, "seg/mmseg/models/utils/gpu.py": "vendored"}
