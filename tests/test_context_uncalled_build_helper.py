"""uncalled-build-helper: an extension built in a setup.py helper that the setup.py never names builds nothing."""
import json

from conftest import run_cli
from trnready import context

TEMPLATE = '''from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension


def make_cuda_ext(name, sources):
    return CUDAExtension(name=name, sources=sources)


setup(name="proj", ext_modules=[])
'''

CALLED = TEMPLATE.replace("ext_modules=[]", 'ext_modules=[make_cuda_ext("ops", ["ops.cu"])]')


def test_registered_as_a_guard():
    assert context.get("uncalled-build-helper").effect == "guard"


def _build_findings(tmp_path, code):
    (tmp_path / "setup.py").write_text(code)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]
            if f["rule"] == "TRN302"]


def test_a_helper_nothing_calls_builds_nothing(tmp_path):
    assert _build_findings(tmp_path, TEMPLATE) == [(6, 12, "TRN302", "uncalled-build-helper")]


def test_a_helper_the_setup_call_names_is_the_build(tmp_path):
    assert _build_findings(tmp_path, CALLED) == [(6, 12, "TRN302", None)]


PACKAGE_MODULE = '''import torch


def setup_after_launch(cfg):
    torch.backends.cudnn.benchmark = cfg.CUDNN_BENCHMARK
'''


def test_a_package_module_named_setup_is_no_build_script(tmp_path):
    # d2go's `d2go/setup.py` imports no packaging library: its tools import it for `setup_after_launch`, so the
    # cuDNN setting in a function the file never names is still set wherever they call it
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "setup.py").write_text(PACKAGE_MODULE)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    assert [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"]] == [("pkg/setup.py", 5, 5, "TRN261", None)]
