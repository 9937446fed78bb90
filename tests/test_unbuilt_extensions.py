"""Report step unbuilt-extensions (project/unbuilt_extensions.py): TRN305 stays only for modules the repository
neither defines nor builds."""
import json

from conftest import run_cli

USE = "import torch\nimport {m}\n\n\ndef op(x):\n    return {m}.forward(x)\n"


def _findings(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", "--select", "TRN305")
    assert proc.returncode == 0, proc.stderr
    return [(f["path"], f["line"], f["column"], f["message"]) for f in json.loads(proc.stdout)["findings"]]


def test_an_extension_nothing_here_defines_or_builds_is_reported(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="focal_cpp"))
    assert _findings(tmp_path) == [
        ("loss.py", 2, 1, "Compiled extension imported but not built in this repository: `focal_cpp`")]


def test_an_extension_a_setup_script_builds_is_left_to_the_build(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="focal_cpp"))
    (tmp_path / "setup.py").write_text("from setuptools import setup\nfrom torch.utils.cpp_extension import "
                                       "CppExtension\n\nsetup(ext_modules=[CppExtension('focal_cpp', "
                                       "['csrc/focal.cpp'])])\n")
    assert _findings(tmp_path) == []


def test_a_module_of_the_project_with_that_name_is_no_extension(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="utils_cuda"))
    (tmp_path / "utils_cuda.py").write_text("def forward(x):\n    return x\n")
    assert _findings(tmp_path) == []


def test_its_source_beside_it_means_a_build_of_its_own(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="swish_cpp"))
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / "swish_cpp.cpp").write_text("#include <torch/extension.h>\n")
    assert _findings(tmp_path) == []


def test_a_declared_dependency_is_a_published_package_not_an_unbuilt_extension(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="bioimage_cpp"))
    (tmp_path / "setup.py").write_text("from setuptools import setup\n\nsetup(name='seg', install_requires=["
                                       "'numpy', 'bioimage-cpp'])\n")
    assert _findings(tmp_path) == []


def test_a_conda_environment_declares_it_too(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="bioimage_cpp"))
    (tmp_path / "environment.yaml").write_text("name: seg\ndependencies:\n  - python\n  - bioimage-cpp\n")
    assert _findings(tmp_path) == []


def test_a_dependency_whose_name_only_starts_alike_declares_nothing(tmp_path):
    (tmp_path / "loss.py").write_text(USE.format(m="focal_cpp"))
    (tmp_path / "requirements.txt").write_text("focal-cpp-tools==1.0\nfocal\n")
    assert _findings(tmp_path) == [
        ("loss.py", 2, 1, "Compiled extension imported but not built in this repository: `focal_cpp`")]
