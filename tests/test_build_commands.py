"""Report step build-commands (trnready/project/build_commands.py): a script's `python setup.py build install` or
`pip install -e .` is a place of the CUDA extension the setup.py it runs builds, and is dropped when that setup.py
builds none; the folder is the script's or the root's, after the script's `cd`s."""
import json

import pytest

from conftest import run_cli
from test_extension_places import GUARDED_SETUP, _ops
from trnready.project.build_commands import _candidates, _folder

CUDA_SETUP = '''from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(name="op", ext_modules=[CUDAExtension("op", ["op.cpp", "op_kernel.cu"])], cmdclass={"build_ext": BuildExtension})
'''
CPU_SETUP = '''from setuptools import setup
from torch.utils.cpp_extension import CppExtension

setup(name="op", ext_modules=[CppExtension("op", ["op.cpp"])])
'''


def scan(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["message"], [(o["path"], o["line"]) for o in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"] if f["category"] == "custom-cuda-kernel"]


def test_the_build_command_of_a_cuda_setup_py_is_a_place_of_its_build(tmp_path):
    found = scan(tmp_path, {"ops/setup.py": CUDA_SETUP, "ops/make.sh": "#!/bin/bash\npython setup.py build install\n"})
    assert [(p, ln, places) for p, ln, _r, _m, places in found] == [("ops/setup.py", 4, [("ops/make.sh", 2)])]
    assert found[0][3].endswith("; built by ops/make.sh:2")


def test_a_guarded_build_hands_the_command_to_the_import_that_stays_reported(tmp_path):
    found = scan(tmp_path, {**_ops(GUARDED_SETUP), "ops/make.sh": "python setup.py build install\n"})
    # the build is guarded (never chosen on Neuron); the import of the built module fails there: the extension's
    # finding, which carries the build command next to the imports
    assert [(p, ln, places[-1]) for p, ln, r, _m, places in found if r == "TRN302"] == [
        ("ops/functions/attn_func.py", 2, ("ops/make.sh", 1))]


def test_commands_that_build_no_cuda_extension_are_dropped(tmp_path):
    found = scan(tmp_path, {
        "cpu/setup.py": CPU_SETUP, "cpu/make.sh": "python setup.py install\n",
        "install.sh": "# python setup.py install\necho 'python setup.py install'\npip install -e .\n"
                      "cd /opt/other && python setup.py install\n",
    })
    assert found == []


@pytest.mark.parametrize("script, line, column, expected", [
    (["python setup.py install"], 1, 1, ""),
    (["cd models/ops && python setup.py install"], 1, 20, "models/ops"),
    (["cd models/ops", "python setup.py install"], 2, 1, "models/ops"),
    (["cd a/b", "cd ..", "pip install ."], 3, 1, "a"),
    (["  cd build_dir", "python setup.py develop"], 2, 1, "build_dir"),
    (["cd $ROOT/ops && python setup.py install"], 1, 20, None),
    (["cd /opt/x", "python setup.py install"], 2, 1, None),
    (["cd", "python setup.py install"], 2, 1, None),
    (["# cd elsewhere", "python setup.py install"], 2, 1, ""),
    (["cd ../..", "pip install ."], 2, 1, None),
    (["cd ops && pip install . && cd -", "cd other && cd - && python setup.py install"], 2, 24, ""),
    (["cd a", "cd b && cd -", "python setup.py install"], 3, 1, "a"),
    (["cd a/..", "python setup.py install"], 2, 1, ""),
])
def test_folder_a_command_runs_in(script, line, column, expected):
    assert _folder(script, line, column) == expected


def test_candidates_are_the_scripts_folder_then_the_root():
    assert _candidates("scripts/install.sh", "ops") == ["scripts/ops/setup.py", "ops/setup.py"]
    assert _candidates("make.sh", "") == ["setup.py"]
