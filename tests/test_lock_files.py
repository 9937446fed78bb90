"""Report step lock-files (trnready/project/lock_files.py): the pin a lock file holds for a dependency the
pyproject.toml beside it declares is a place of the declaration's finding; the lock's other entries are not read."""
import json

from conftest import FIXTURES, run_cli

from trnready.project.lock_files import conda_locked_packages, locked_packages, pipenv_locked_packages


def _findings(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_a_declared_dependency_lists_its_lock_pin_and_transitive_pins_stay_unreported():
    # flash-attn (an extra of pyproject.toml) is pinned at uv.lock:24: one finding, at the declaration, with the pin
    # as a place. nvidia-nccl-cu12 and triton are in the lock only because torch pulls them in: nothing at them.
    # A lock with no pyproject.toml beside it (lock_only/poetry.lock) declares nothing and gives nothing.
    # conda-lock.yml beside an environment.yml: the locked python and pytorch-cuda are places of the declarations'
    # findings; cuda-runtime, which pytorch-cuda pulls in, is not read.
    assert _findings(FIXTURES / "lock_files") == [
        ("app/pyproject.toml", 12, "TRN501", [("app/uv.lock", 24)]),
        ("conda_env/environment.yml", 4, "TRN505", []),  # the nvidia channel (rec24b)
        ("conda_env/environment.yml", 7, "TRN522", [("conda_env/conda-lock.yml", 29)]),
        ("conda_env/environment.yml", 8, "TRN506", []),
        ("conda_env/environment.yml", 9, "TRN505", [("conda_env/conda-lock.yml", 36)]),
        # Pipfile.lock beside a Pipfile: the declared xformers; the locked torch's CUDA wheels are not read
        ("pipenv/Pipfile", 8, "TRN501", [("pipenv/Pipfile.lock", 18)]),
    ]


def test_locked_packages_reads_the_name_of_each_package_table_only():
    text = ('[[package]]\nname = "Flash_Attn"\nversion = "2.6.3"\ndependencies = [\n    { name = "torch" },\n]\n\n'
            '[package.optional-dependencies]\nx = [{ name = "triton" }]\n\n[[package]]\nname = "torch"\n'
            '[metadata]\nname = "not-a-package"\n')
    assert locked_packages(text) == {"flash-attn": [2], "torch": [12]}


def test_conda_locked_packages_reads_the_package_list_entries_only():
    text = ("metadata:\n  sources:\n  - name: not-a-package\npackage:\n- name: Flash_Attn\n  version: 2.3.6\n"
            "  dependencies:\n    torch: '>=2'\n- name: torch\n  version: 2.1.0\n- name: torch\n  platform: osx-64\n")
    assert conda_locked_packages(text) == {"flash-attn": [5], "torch": [9, 11]}


def test_pipenv_locked_packages_reads_the_default_and_develop_sections_only():
    text = ('{\n    "_meta": {\n        "hash": {\n            "sha256": "0"\n        }\n    },\n'
            '    "default": {\n        "Flash_Attn": {\n            "version": "==2.6.3"\n        }\n    },\n'
            '    "develop": {\n        "pytest": {}\n    }\n}\n')
    assert pipenv_locked_packages(text) == {"flash-attn": [8], "pytest": [13]}
