"""own-package: the scanned project's own top-level packages are never library findings."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready.context.own_package import own_packages, project_facts

ROOT = CONTEXT_FIXTURES / "own_package"
MAMBA = "Kernel libraries for model layers (mamba-ssm, causal-conv1d, Liger, FlashInfer, Unsloth, MegaBlocks): `{}`"


def test_torchao_scanning_itself_reports_only_other_libraries():
    # pyproject.toml [project].name = "torchao": its `from torchao.float8...` imports are its own code
    assert scan_findings(ROOT / "torchao_repo") == [
        ("torchao/float8/float8_linear.py", 5, 1, "TRN292", MAMBA.format("mamba_ssm"), False)]


def test_mamba_scanning_itself_from_setup_py_packages():
    # setup.py packages=["mamba_ssm", ...] (the distribution name differs from the import name)
    assert scan_findings(ROOT / "mamba_repo") == [
        ("mamba_ssm/modules/mamba_simple.py", 4, 1, "TRN292", MAMBA.format("causal_conv1d"), False)]


def test_a_project_that_uses_the_libraries_still_gets_them():
    assert scan_findings(ROOT / "user_repo") == [
        ("src/myproj/model.py", 1, 1, "TRN201", "TorchAO (quantization and float8 training): `torchao.float8`", False),
        ("src/myproj/model.py", 2, 1, "TRN292", MAMBA.format("mamba_ssm"), False)]


def test_package_sources():
    assert own_packages(ROOT / "torchao_repo") == {"torchao"}
    assert own_packages(ROOT / "mamba_repo") == {"mamba_ssm", "mamba_ssm_fork"}
    assert own_packages(ROOT / "user_repo") == {"myproj"}  # setup.cfg name, and src/myproj/__init__.py
    # scanning a sub-directory still knows the project it sits in
    assert project_facts(ROOT / "torchao_repo" / "torchao" / "float8").own_packages == {"torchao"}


def test_extension_modules_built_by_setup_py_are_the_projects_own(tmp_path):
    # hit: the names setup.py builds (keyword or first positional string, dotted names by their top level);
    # look-alikes: BuildExtension is the build command, not a module; a name read from a variable is not known
    (tmp_path / "setup.py").write_text(
        'from setuptools import setup\n'
        'from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension\n'
        'NAME = "from_variable"\n'
        'setup(name="fusedopt", ext_modules=[CUDAExtension(name="amp_C", sources=["a.cu"]),\n'
        '      CppExtension("apex_C", ["b.cpp"]), CUDAExtension("pkg._C", ["c.cu"]), CUDAExtension(NAME, ["d.cu"])],\n'
        '      cmdclass={"build_ext": BuildExtension})\n')
    assert own_packages(tmp_path) == {"fusedopt", "amp_C", "apex_C", "pkg"}


def test_hatch_wheel_package_folders_are_the_projects_own(tmp_path):
    # hatchling's `packages` name folders: a namespace package (`src/acme`, no __init__.py at its top) whose import
    # name is not the distribution's (`acme-audio`); a file name or a non-string entry adds nothing of its own
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "acme-audio"\n\n[build-system]\nrequires = ["hatchling"]\n\n'
        '[tool.hatch.build.targets.wheel]\npackages = ["src/acme/", 3]\n\n'
        '[tool.hatch.build]\npackages = ["acme_extras"]\n')
    (tmp_path / "src" / "acme" / "audio").mkdir(parents=True)
    (tmp_path / "src" / "acme" / "audio" / "__init__.py").write_text("")
    assert own_packages(tmp_path) == {"acme_audio", "acme", "acme_extras"}
