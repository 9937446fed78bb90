"""Issue 5: notebooks, dependency manifests, CUDA sources, containers, shell/YAML/.env, repo-level advisories.

The fixture repo `fixtures/surface` mixes every kind; the tests run the real CLI with JSON output and assert
exact paths, cells, lines and rules.
"""
import json

import jsonschema
import pytest
from packaging.specifiers import SpecifierSet

from conftest import FIXTURES, REPO, run_cli
from trnready import requirements as rq
from trnready.readers.cuda import cuda_kernels
from trnready.readers.notebook import split_cell

SCHEMA = json.loads((REPO / "trnready" / "schema" / "report.schema.json").read_text())

EXPECTED = {
    (".env", None, 1, "TRN607"),
    (".github/workflows/ci.yml", None, 3, "TRN609"),
    (".github/workflows/ci.yml", None, 5, "TRN603"),
    (".github/workflows/ci.yml", None, 7, "TRN503"),
    ("Dockerfile", None, 2, "TRN603"),
    ("Dockerfile", None, 3, "TRN604"),
    ("Dockerfile", None, 4, "TRN605"),
    ("Dockerfile", None, 5, "TRN607"),
    ("Dockerfile", None, 9, "TRN501"),  # continued RUN line: the package's own physical line
    ("Dockerfile", None, 10, "TRN521"),
    ("Pipfile", None, 7, "TRN502"),
    ("Pipfile", None, 10, "TRN522"),
    ("csrc/helpers.cuh", None, 1, "TRN601"),
    ("csrc/kernels.cu", None, 1, "TRN601"),
    ("deps/common.pip", None, 1, "TRN521"),  # included with -r, scanned with requirements.txt
    ("deps/common.pip", None, 2, "TRN512"),
    ("environment.yml", None, 3, "TRN505"),  # the nvidia channel (NVIDIA's CUDA packages)
    ("environment.yml", None, 5, "TRN522"),
    ("environment.yml", None, 6, "TRN506"),
    ("environment.yml", None, 9, "TRN501"),
    ("environment.yml", None, 10, "TRN512"),
    ("notebooks/demo.ipynb", 1, 1, "TRN501"),
    ("notebooks/demo.ipynb", 1, 2, "TRN502"),
    ("notebooks/demo.ipynb", 1, 6, "TRN612"),  # `!nvidia-smi` inside an `if` block
    ("notebooks/demo.ipynb", 1, 7, "TRN241"),
    ("notebooks/demo.ipynb", 2, 2, "TRN605"),
    ("notebooks/demo.ipynb", 2, 3, "TRN502"),
    ("notebooks/demo.ipynb", 4, 2, "TRN191"),
    ("notebooks/old_v3.ipynb", 1, 2, "TRN242"),
    ("pyproject.toml", None, 3, "TRN522"),
    ("pyproject.toml", None, 6, "TRN501"),
    ("pyproject.toml", None, 10, "TRN509"),  # vllm: the vllm-neuron plugin (an install change)
    ("pyproject.toml", None, 13, "TRN502"),
    ("pyproject.toml", None, 17, "TRN521"),
    ("pyproject.toml", None, 18, "TRN501"),
    ("pyproject.toml", None, 21, "TRN503"),
    ("requirements.txt", None, 4, "TRN505"),  # TRN506 (a torch pin below 2.13) on the same line is a place of it
    ("requirements.txt", None, 5, "TRN503"),
    ("requirements.txt", None, 7, "TRN501"),
    ("requirements/base.txt", None, 2, "TRN511"),
    ("requirements/base.txt", None, 2, "TRN521"),  # no Neuron index anywhere in the repo
    ("scripts/launch.sh", None, 2, "TRN607"),
    ("scripts/launch.sh", None, 4, "TRN606"),
    ("scripts/launch.sh", None, 5, "TRN608"),
    ("setup.cfg", None, 5, "TRN522"),
    ("setup.cfg", None, 8, "TRN503"),
    ("setup.py", None, 6, "TRN501"),
    ("setup.py", None, 11, "TRN522"),
    ("setup.py", None, 13, "TRN502"),
    ("setup.py", None, 13, "TRN521"),
    ("setup.py", None, 14, "TRN302"),
    ("train.py", None, 4, "TRN702"),
    ("train.py", None, 5, "TRN701"),
}


def scan_json(*args):
    proc = run_cli("scan", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, SCHEMA)
    return proc, data


@pytest.fixture(scope="module")
def surface_report():
    return scan_json(FIXTURES / "surface")[1]


def _key(f):
    return (f["path"], f.get("cell"), f["line"], f["rule"])


def test_mixed_repo_exact_findings(surface_report):
    got = [_key(f) for f in surface_report["findings"]]
    assert len(got) == len(set(got)), "duplicate findings"
    assert set(got) == EXPECTED


def test_exact_columns_and_messages(surface_report):
    by = {(_key(f)): f for f in surface_report["findings"]}
    f = by[("Dockerfile", None, 9, "TRN501")]
    assert (f["column"], f["end_column"]) == (8, 25) and "flash-attn==2.6.3" in f["message"]
    f = by[("notebooks/demo.ipynb", 1, 1, "TRN501")]
    assert f["column"] == 17 and f["snippet"] == "!pip install -q flash-attn --no-build-isolation"
    assert f["cell"] == 1  # 0-based index into `cells`, the markdown cell 0 counted
    f = by[("csrc/kernels.cu", None, 1, "TRN601")]
    assert "2 __global__ kernels" in f["message"] and "add_kernel, scale" in f["message"]
    f = by[("csrc/helpers.cuh", None, 1, "TRN601")]
    assert "no __global__ kernel defined" in f["message"]
    f = by[("pyproject.toml", None, 3, "TRN522")]
    assert f["column"] == 20 and ">=3.9,<3.12" in f["message"]
    f = by[("train.py", None, 5, "TRN701")]
    assert "TORCH_NEURONX_NEFF_CACHE_DIR appears in no scanned file" in f["message"]
    assert f["severity"] == "advisory" and f["category"] == "environment"


def test_malformed_notebooks_are_diagnostics(surface_report):
    diags = {d["path"]: d["kind"] for d in surface_report["diagnostics"]}
    assert diags == {"notebooks/broken.ipynb": "malformed-notebook", "notebooks/nocells.ipynb": "malformed-notebook",
                     # cell 3 (`def broken(:`) is reported, no longer skipped silently; its other cells still count
                     "notebooks/demo.ipynb": "cell-syntax-error"}


def test_summary_counts_files_by_kind_and_group(surface_report):
    s = surface_report["summary"]
    assert s["files_by_kind"] == {"conda": 1, "cuda": 2, "dockerfile": 1, "env": 1, "notebook": 2, "pipfile": 1,
                                  "pyproject": 1, "python": 2, "requirements": 2, "setup-cfg": 1, "shell": 1,
                                  "yaml": 1}
    assert s["files_by_group"] == {"python": 2, "notebook": 2, "manifest": 6, "cuda": 2, "container": 1,
                                   "shell/yaml": 3}
    assert s["files_scanned"] == 16 and s["files_skipped"] == 2


def test_text_output_shows_cells_and_groups():
    proc = run_cli("scan", FIXTURES / "surface", "--no-color")
    assert proc.returncode == 1
    assert "notebooks/demo.ipynb:cell 2, line 1:17 TRN501" in proc.stdout
    assert "Scanned 16 file(s) (2 python, 2 notebook, 6 manifest, 2 cuda, 1 container, 3 shell/yaml)" in proc.stdout


def test_clean_repo_is_ready():
    proc, data = scan_json(FIXTURES / "surface_clean")
    assert data["findings"] == [] and data["diagnostics"] == []
    assert data["summary"]["files_by_group"] == {"python": 1, "manifest": 2, "container": 1, "shell/yaml": 2}
    assert proc.returncode == 0


def test_repo_advisory_is_one_finding_anchored_to_the_first_use(tmp_path):
    (tmp_path / "b.py").write_text("import torch\nm = torch.compile(m)\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.py").write_text("import torch\n\nf = torch.compile(f)\ng = torch.compile(g)\n")
    _, data = scan_json(tmp_path, "--select", "TRN701")
    assert [_key(f) for f in data["findings"]] == [("a/x.py", None, 3, "TRN701")]
    assert "3 uses in 2 files" in data["findings"][0]["message"]
    (tmp_path / "deploy.yaml").write_text("env:\n  TORCH_NEURONX_NEFF_CACHE_DIR: /fsx/neff\n")
    _, data = scan_json(tmp_path, "--select", "TRN701")
    assert data["findings"] == []
    # a file trnready does not scan (Terraform, Makefile, JSON launch config) counts as a mention too
    (tmp_path / "deploy.yaml").unlink()
    (tmp_path / "fleet.tf").write_text('environment = { HF_DEACTIVATE_ASYNC_LOAD = "1" }\n')
    (tmp_path / "c.py").write_text("from transformers import AutoModel\nm = AutoModel.from_pretrained('x')\n")
    _, data = scan_json(tmp_path, "--select", "TRN7")
    assert [f["rule"] for f in data["findings"]] == ["TRN701"]


def test_requirements_index_from_included_and_including_files(tmp_path):
    (tmp_path / "requirements.txt").write_text("-r requirements-neuron.txt\n")
    (tmp_path / "requirements-neuron.txt").write_text("torch-neuronx==2.14.*\n")
    _, data = scan_json(tmp_path, "--select", "TRN521")
    assert [_key(f) for f in data["findings"]] == [("requirements-neuron.txt", None, 1, "TRN521")]
    # the including file carries the index: pip applies it to the whole install
    (tmp_path / "requirements.txt").write_text(
        "--extra-index-url https://pip.repos.neuron.amazonaws.com\n-r requirements-neuron.txt\n")
    _, data = scan_json(tmp_path, "--select", "TRN521")
    assert data["findings"] == []


def test_neuron_index_given_on_the_install_command_elsewhere(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==2.14.0\ntorch-neuronx==2.14.*\n")
    _, data = scan_json(tmp_path, "--select", "TRN521")
    assert [_key(f) for f in data["findings"]] == [("requirements.txt", None, 2, "TRN521")]
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.12\n"
        "RUN pip install -r requirements.txt --extra-index-url https://pip.repos.neuron.amazonaws.com\n")
    _, data = scan_json(tmp_path, "--select", "TRN521")
    assert data["findings"] == []


def test_notebook_magics_keep_line_numbers(tmp_path):
    # `.to(device)`: a notebook naming no device is a CPU program, its float64 guarded (cpu-unit-test)
    nb = {"cells": [{"cell_type": "code", "source": [
        "%matplotlib inline\n", "x = !ls\n", "for i in range(2):\n", "    !echo $i\n",
        "import torch\n", "y = torch.zeros(2, dtype=torch.float64).to(device)\n", "torch.zeros??\n"]},
        {"cell_type": "code", "source": "%%html\n<b>import flash_attn</b>\n"},
        {"cell_type": "code", "source": "%%time\nimport flash_attn\n"}]}
    (tmp_path / "n.ipynb").write_text(json.dumps(nb))
    _, data = scan_json(tmp_path, "--select", "TRN121,TRN281")
    assert {_key(f) for f in data["findings"]} == {("n.ipynb", 0, 6, "TRN121"), ("n.ipynb", 2, 2, "TRN281")}


def test_bad_catalogue_keys_for_new_matchers_exit_2(tmp_path):
    cat = (REPO / "blockers.toml").read_text()
    bad = cat.replace('requirement = ["torch"]\nversion = "<2.13"', 'requirement = ["torch"]\nversion = "<<2"')
    assert bad != cat
    (tmp_path / "c.toml").write_text(bad)
    proc = run_cli("rules", "--catalogue", tmp_path / "c.toml")
    assert proc.returncode == 2 and "TRN506" in proc.stderr and "version" in proc.stderr


# ---------------------------------------------------------------- units

def test_cuda_kernel_listing():
    src = """// __global__ void gone() {}
/* __global__ void also_gone() {} */
__global__ void proto(int);
extern "C" __global__ void a(float* x) {}
template <int N> __global__ void __launch_bounds__(128, 2) b(float* x)
{ }
__global__ void proto(int n) { }
"""
    assert [k for k, _ in cuda_kernels(src)] == ["a", "b", "proto"]
    assert dict(cuda_kernels(src))["b"] == 5


@pytest.mark.parametrize("spec,target,expected", [
    ("==2.9.0.2.11.*", "<2.13.3", True),
    ("<=2.9", "<2.13.3", True),
    ("~=2.1.0", "<2.13.3", True),
    ("<2.13.3", "<2.13.3", True),
    ("<2.14", "<2.13.3", False),  # 2.13.3 (native) is still allowed
    ("==2.14.*", "<2.13.3", False),
    ("==2.13.3.0.1", "<2.13.3", False),
    (">=2.1", "<2.13.3", False),
    ("~=2.1", "<2.13.3", False),
    (">=1.13,<2.2", "<2.13", True),
])
def test_requirement_ceiling(spec, target, expected):
    assert rq.ceiling_in(SpecifierSet(spec), SpecifierSet(target)) is expected


@pytest.mark.parametrize("text,poetry,excluded", [
    (">=3.8", False, False), ("<3.12", False, True), ("==3.10.*", False, True), (">=3.8,<3.13", False, False),
    ("^3.10", True, False), ("~3.10", True, True), ("3.11.*", True, True), ("~3.11 || ^3.12", True, False),
    (">3.12", False, False),
])
def test_python_range(text, poetry, excluded):
    req = rq.pyreq_from(text, 1, 1, poetry=poetry)
    assert rq.python_excludes_all(req, ["3.12", "3.13", "3.14"]) is excluded


def test_pip_commands_in_shell_lines():
    deps = rq.pip_deps('RUN pip install -U --no-cache-dir -r req.txt "flash-attn>=2" ./pkg $EXTRA && pip list')
    assert [(d.name, d.column) for d in deps] == [("flash-attn", 47)]
    assert [d.name for d in rq.pip_deps("pip install numpy  # not flash-attn")] == ["numpy"]
    assert rq.pip_deps("pip uninstall -y flash-attn") == []
    deps = rq.pip_deps("conda install -c nvidia -y pytorch-cuda=12.1 pytorch=2.1")
    assert [d.name for d in deps] == ["pytorch-cuda", "torch"]


def test_urls_and_conda_names_that_name_another_distribution():
    # tiny-cuda-nn's repository builds its PyTorch binding, the distribution tinycudann, from bindings/torch
    url = "git+https://github.com/NVlabs/tiny-cuda-nn/#subdirectory=bindings/torch"
    assert rq.dep_from_url(url, 1, 1).name == "tinycudann"
    assert rq.dep_from_url("git+https://github.com/KAIR-BAIR/nerfacc.git@v0.5.2", 1, 1).name == "nerfacc"
    wheel = "https://github.com/unlimblue/KNN_CUDA/releases/download/0.2/KNN_CUDA-0.2-py3-none-any.whl"
    assert rq.dep_from_url(wheel, 1, 1).name == "knn-cuda"
    # conda's torchtriton (pytorch channel) is Triton; a package whose name merely holds the word is not
    assert [rq.conda_dep(s, 1, 1).name for s in ("torchtriton=2.0.0=py310", "pytorch::torchtriton",
                                                   "torchtriton-docs=1.0")] == ["triton", "triton", "torchtriton-docs"]


def test_split_cell_blanks_magics():
    py, shell, mode = split_cell("%%bash\nexport A=1\n")
    assert mode == "shell" and shell == {2}
    py, shell, mode = split_cell("import os\n!pip install x \\\n   y\nz = 1")
    assert mode == "python" and shell == {2, 3}
    assert py.splitlines() == ["import os", "pass", "", "z = 1"]


def test_catalogue_has_examples_for_every_input_kind():
    from collections import Counter
    from pathlib import Path

    from trnready.catalogue import load_catalogue
    from trnready.filekinds import kind_of as file_kind

    hits, cleans = Counter(), Counter()
    for rule in load_catalogue().rules:
        hits.update(file_kind(Path(e.file).name) for e in rule.hits)
        cleans.update(file_kind(Path(e.file).name) for e in rule.cleans)
    for kind in ("notebook", "requirements", "pyproject", "setup-cfg", "conda", "pipfile", "dockerfile", "shell",
                 "yaml", "env"):
        assert hits[kind] >= 2 and cleans[kind] >= 2, kind
    assert hits["cuda"] >= 2  # every CUDA source is a finding, so there is no clean .cu example


def read_kind(text: str, rel: str, kind: str, engine):
    """One in-memory file through the real pipeline (reader and post-processing)."""
    from trnready.api import scan_bytes

    return scan_bytes(text.encode("utf-8"), rel, kind, engine)


def test_setup_py_and_setup_cfg_positions():
    from trnready.api import build_engine
    from trnready.config import Config

    eng = build_engine(Config())
    src = ('from setuptools import setup\n'
           'setup(name="x", install_requires="""\n    numpy\n    flash-attn>=2\n""".split())\n')
    found = [(f.line, f.column, f.rule) for f in read_kind(src, "setup.py", "python", eng)[0]]
    assert found == [(4, 5, "TRN501")]
    found = [(f.line, f.column, f.rule) for f in
             read_kind("[options]\ninstall_requires = numpy, xformers\n", "setup.cfg", "setup-cfg", eng)[0]]
    assert found == [(2, 27, "TRN501")]


def test_call_globs_in_the_catalogue(tmp_path):
    (tmp_path / "t.py").write_text(
        "from transformers import AutoTokenizer\nfrom trl import SFTTrainer\n"
        "tok = AutoTokenizer.from_pretrained('x')\ntrainer = SFTTrainer(model=m)\n")
    _, data = scan_json(tmp_path, "--select", "TRN702")
    assert [_key(f) for f in data["findings"]] == [("t.py", None, 4, "TRN702")]


_HF_LOAD = "from transformers import AutoModel\nmodel = AutoModel.from_pretrained('x')\n"


@pytest.mark.parametrize("files,reported", [
    ({"requirements.txt": "torch\ntransformers==4.19.2\n"}, False),
    ({"requirements_versions.txt": "transformers==4.42.4\n"}, False),
    ({"environment.yaml": "name: x\ndependencies:\n  - python=3.8\n  - pip:\n    - transformers==4.33.2\n"},
     False),
    # a ceiling in one root file and none in another: pip installs both, so the ceiling holds
    ({"requirements.txt": "transformers>=4.25,<5.0\n", "requirements-dev.txt": "transformers!=4.40.1\n"}, False),
    ({"requirements.txt": "transformers>=4.40\n"}, True),
    ({"requirements.txt": "transformers\n"}, True),
    ({"requirements.txt": "transformers>=5.0\n"}, True),
    ({"requirements.txt": "transformers<6\n"}, True),
    # an example's own pin says what it was tried with, not what the project installs
    ({"examples/demo/requirements.txt": "transformers==4.55.4\n"}, True),
    ({}, True),
])
def test_async_load_advisory_follows_the_root_transformers_pin(tmp_path, files, reported):
    (tmp_path / "load.py").write_text(_HF_LOAD)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _, data = scan_json(tmp_path, "--select", "TRN702")
    assert [_key(f) for f in data["findings"]] == ([("load.py", None, 2, "TRN702")] if reported else [])


def test_root_pins_unit(tmp_path):
    from trnready.project.root_pins import capped

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["transformers~=4.46.0"]\n')
    assert capped(tmp_path, "transformers<5")
    assert not capped(tmp_path, "transformers<4.40")
    assert not capped(tmp_path, "torch<2")  # not declared: nothing is known
    assert not capped(None, "transformers<5")
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(install_requires=['transformers>=5'])\n")
    assert not capped(tmp_path, "transformers<5")


def test_conda_environment_under_another_yaml_name(tmp_path):
    (tmp_path / "env-gpu.yml").write_text("name: gpu\nchannels: [conda-forge]\ndependencies:\n  - python=3.9\n"
                                          "  - pip:\n    - xformers\n")
    _, data = scan_json(tmp_path)
    assert {_key(f) for f in data["findings"]} == {("env-gpu.yml", None, 4, "TRN522"),
                                                   ("env-gpu.yml", None, 6, "TRN501")}


@pytest.mark.parametrize("match,key", [
    ('call = ["torch.compile"]\nversion = "<2"', "version"),
    ('requirement = ["x"]\nscope = "everywhere"', "scope"),
    ('requirement = ["x"]\nmentioned-in = "repo"', "mentioned-in"),
    ('call = ["torch.compile"]\nscope = "repo"', "scope"),
    ('call = ["torch.compile"]\nunless-mentioned = ["X"]', "unless-mentioned"),
    ('python = ["3"]', "python"),
    ('file = ["python"]', "file"),
    ('line = ["x"]\nfiles = ["python"]', "files"),
    ('call = ["transformers.Auto*"]', "call"),
    ('requirement = ["x"]\nversion-shape = "("', "version-shape"),
    ('call = ["torch.compile"]\nunless-capped = ["transformers<5"]', "unless-capped"),
    ('call = ["torch.compile"]\nscope = "repo"\nunless-mentioned = ["X"]\nunless-capped = ["<5"]', "unless-capped"),
])
def test_new_matcher_keys_are_validated(tmp_path, match, key):
    from trnready.catalogue import CatalogueError, load_catalogue

    cat = f'''[catalogue]
version = "1"

[[rule]]
id = "TST001"
name = "t"
category = "environment"
severity = "change"
title = "t"
why = "w"
fix = "f"
source = [{{ title = "s", url = "https://example.invalid/s" }}]
docs = "https://example.invalid"

[[rule.match]]
{match}

[rule.examples]
hit = ["x"]
clean = ["y"]
'''
    (tmp_path / "c.toml").write_text(cat)
    with pytest.raises(CatalogueError) as e:
        load_catalogue(tmp_path / "c.toml")
    assert key in str(e.value) and "TST001" in str(e.value)


def test_random_inputs_never_crash_any_reader():
    """Garbage in every input kind gives findings or a diagnostic, never an exception."""
    import random

    from trnready.api import build_engine
    from trnready.config import Config

    eng = build_engine(Config())
    frags = ["pip install ", "flash-attn", "==", "2.9.*", "\\\n", "\n", "#", " ", "[project]", "dependencies = [",
             '"', "'", "]", "-r ", "x.txt", "__global__ void k(", "){", "}", "python=3.10", "- pip:",
             "dependencies:", "  - ", "%%bash", "!pip", "{", "cells", ":", ",", "torch-neuronx", "^3.10", "||",
             "~=", "setup(", ")", "=", "[options]", "install_requires", "\t", "\u202e", "FROM python:3.1",
             "CUDA_VISIBLE_DEVICES", "[[source]]", "[packages]", "[tool.poetry.dependencies]", "python = ", "*",
             "@", "git+https://x", ";", "&&", "python_requires="]
    kinds = ["notebook", "requirements", "pyproject", "setup-cfg", "conda", "pipfile", "cuda", "dockerfile",
             "shell", "yaml", "env", "python"]
    rnd = random.Random(5)
    for _ in range(1500):
        text = "".join(rnd.choice(frags) for _ in range(rnd.randint(0, 40)))
        kind = rnd.choice(kinds)
        if kind == "notebook" and rnd.random() < 0.5:
            text = json.dumps({"cells": [{"cell_type": rnd.choice(["code", "markdown"]),
                                          "source": rnd.choice([text, text.splitlines(True), 3, None])}, 5]})
        findings, diag = read_kind(text, "setup.py" if kind == "python" else "f", kind, eng)
        assert isinstance(findings, list)


def test_notebook_writefile_cells_are_scanned_as_that_file(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "%%writefile requirements.txt\ntorch==2.14.0\nxformers\n"},
                    {"cell_type": "code", "source": "%%writefile run.sh\nexport XLA_USE_BF16=1\n"}]}
    (tmp_path / "w.ipynb").write_text(json.dumps(nb))
    _, data = scan_json(tmp_path)
    assert {_key(f) for f in data["findings"]} == {("w.ipynb", 0, 3, "TRN501"), ("w.ipynb", 1, 2, "TRN607")}


# ---------------------------------------------------------------- audit on public repos (fixtures/surface_audit)
# Each file re-creates, in our own words, a pattern met while auditing real repositories (see README,
# "Verified on public repositories"): the expectations are exact (path, cell, line, rule).

AUDIT_EXPECTED = {
    # `pyenv install` / `conda create python=${VAR}`: the version is reported where the variable is set
    ("ci/setup.sh", None, 3, "TRN522"),
    ("ci/setup.sh", None, 5, "TRN522"),
    ("ci/setup.sh", None, 7, "TRN512"),  # pip install git+https://github.com/huggingface/optimum-neuron.git
    ("deps/requirements.txt", None, 3, "TRN502"),  # git+ URL of bitsandbytes
    ("deps/requirements.txt", None, 4, "TRN501"),  # -e git+...#egg=flash-attn
    ("deps/requirements.txt", None, 6, "TRN501"),  # marker true on Linux; line 5 (darwin only) is not a hit
    # torch wheel URL with %2Bcu121: one finding per category and line (the TRN506 pin is a place of it)
    ("deps/requirements.txt", None, 7, "TRN505"),
    ("docker/Dockerfile.base-arg", None, 2, "TRN603"),  # ARG BASE_IMAGE=nvcr.io/... used by FROM ${BASE_IMAGE}
    ("docker/Dockerfile.base-arg", None, 3, "TRN522"),  # ARG PYTHON_VERSION=3.10 used by uv venv --python
    ("docker/Dockerfile.base-arg", None, 7, "TRN501"),  # flash_attn-...whl URL inside a continued RUN
    ("docker/Dockerfile.base-arg", None, 8, "TRN501"),  # pip install -e git+...#egg=mamba-ssm
    ("docker/Dockerfile.base-arg", None, 10, "TRN505"),  # whl/nightly/cu${CUDA_TAG}
    ("docker/Dockerfile.conda", None, 2, "TRN522"),  # ENV PYTHON_VERSION=3.11 used by conda create
    ("kernels/overloads.cu", None, 1, "TRN601"),
    ("nb/py2.ipynb", 0, 1, "TRN502"),  # no cell parses (Python 2), the shell line is still read
    ("nb/train.ipynb", 1, 1, "TRN502"),
    ("nb/train.ipynb", 1, 2, "TRN522"),  # !conda install -y python=3.10
    ("nb/train.ipynb", 3, 3, "TRN241"),  # cell 2 does not parse; cell 3 is still scanned
    ("infra/compute_env.json", None, 6, "TRN609"),  # AWS Batch template (JSON kind)
    ("infra/compute_env.json", None, 11, "TRN607"),
    ("infra/main.tf", None, 4, "TRN609"),  # Terraform; `#` and `//` comments never match
    ("pkg/.python-version", None, 1, "TRN522"),  # pyenv / uv interpreter pin 3.10.14
    ("pkg/environment-gpu.yml", None, 4, "TRN505"),  # the nvidia channel
    ("pkg/environment-gpu.yml", None, 7, "TRN506"),
    ("pkg/environment-gpu.yml", None, 8, "TRN505"),  # conda pytorch-cuda=12.1; the win32-only pip line is not
    ("pkg/pyproject.toml", None, 7, "TRN502"),
    ("pkg/pyproject.toml", None, 8, "TRN501"),
    ("pkg/pyproject.toml", None, 11, "TRN502"),  # same string as line 7, in another extra: its own line
    ("pkg/pyproject.toml", None, 12, "TRN501"),
}


@pytest.fixture(scope="module")
def audit_report():
    return scan_json(FIXTURES / "surface_audit")[1]


def test_audit_fixture_exact_findings(audit_report):
    got = [_key(f) for f in audit_report["findings"]]
    assert len(got) == len(set(got)), "duplicate findings"
    assert set(got) == AUDIT_EXPECTED


def test_audit_columns_and_messages(audit_report):
    by = {_key(f): f for f in audit_report["findings"]}
    f = by[("docker/Dockerfile.base-arg", None, 2, "TRN603")]
    assert (f["column"], f["end_column"]) == (16, 48)  # the image, not the ARG keyword
    assert by[("docker/Dockerfile.base-arg", None, 3, "TRN522")]["message"].endswith("`PYTHON_VERSION=3.10`")
    f = by[("kernels/overloads.cu", None, 1, "TRN601")]
    # two overloads are two kernels to port; the templated prototype is not a definition
    assert "2 __global__ kernels" in f["message"] and "dropout_kernel x2" in f["message"]
    f = by[("nb/train.ipynb", 1, 2, "TRN522")]
    assert f["column"] == 26 and f["snippet"] == "!conda install -y python=3.10"


def test_audit_partial_diagnostics_keep_findings(audit_report):
    diags = {d["path"]: d for d in audit_report["diagnostics"]}
    assert set(diags) == {"deps/requirements.txt", "nb/train.ipynb", "nb/py2.ipynb"}
    assert diags["nb/py2.ipynb"]["kind"] == "syntax-error"
    d = diags["nb/train.ipynb"]
    assert d["kind"] == "cell-syntax-error" and "cell 2: line 1" in d["message"]
    d = diags["deps/requirements.txt"]
    assert d["kind"] == "missing-include" and "deps/requirements.txt:1: -r base-missing.txt" in d["message"]
    assert "constraints.txt" not in d["message"]  # present, so not reported
    s = audit_report["summary"]
    assert s["files_skipped"] == 1  # py2.ipynb; the other two were scanned (partly for train.ipynb)
    assert s["files_by_kind"]["notebook"] == 1 and s["files_by_kind"]["requirements"] == 2
    assert s["files_scanned"] == 14  # .devcontainer/devcontainer.json: `//"--gpus=all"` is a comment


def test_issue_forms_are_not_deployments(audit_report):
    assert not [f for f in audit_report["findings"] if "ISSUE_TEMPLATE" in f["path"]]


@pytest.mark.parametrize("text,name,versions", [
    ("https://github.com/Dao-AILab/flash-attention/releases/download/v2.5.8/"
     "flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl", "flash-attn",
     ["2.5.8+cu122torch2.3cxx11abiFALSE"]),
    ("git+https://github.com/bitsandbytes-foundation/bitsandbytes.git", "bitsandbytes", []),
    ("git+https://github.com/Dao-AILab/flash-attention@v2.6.3", "flash-attn", []),
    ("git+https://github.com/org/proj.git#egg=xformers", "xformers", []),
    ("./wheels/xformers-0.0.28-cp312-cp312-manylinux_2_28_x86_64.whl", "xformers", ["0.0.28"]),
    ("https://files.example.org/causal_conv1d-1.4.0.tar.gz", "causal-conv1d", ["1.4.0"]),
])
def test_url_requirements_name_their_distribution(text, name, versions):
    d = rq.dep_from_string(text, 1, 1)
    assert (d.name, d.versions) == (name, versions)


@pytest.mark.parametrize("text", [
    'bitsandbytes>=0.42; sys_platform == "darwin"', 'numpy<2; python_version < "3.12"',
    "https://example.org/downloads/", "https://github.com/org/repo/archive/refs/heads/main.zip",
])
def test_not_installed_on_trainium_or_unnamed(text):
    assert rq.dep_from_string(text, 1, 1) is None


def test_marker_with_extra_is_kept():
    assert rq.dep_from_string('xformers; extra == "gpu"', 1, 1).name == "xformers"


# ---------------------------------------------------------------- labelled accuracy set (bench surface)

def test_accuracy_surface_labels_match_scan_exactly():
    from bench import surface as bench

    res = bench.evaluate(FIXTURES / "accuracy_surface")
    assert res.misses == [] and res.false_positives == [] and res.wrong_rule == []
    assert res.unlabelled == [], "every finding must sit on a labelled line"
    assert res.missing_diagnostics == [] and res.extra_diagnostics == []
    kinds = {row[0] for row in res.rows}
    assert {"requirements", "pyproject", "setup-cfg", "setup-py", "conda", "pipfile", "python-version", "notebook",
            "cuda", "dockerfile", "shell", "yaml:config", "yaml:ci", "yaml:other", "env", "json:config", "json:other",
            "terraform"} <= kinds
    assert all(row[4] > 0 for row in res.rows), "every kind has look-alikes"


def test_bench_surface_command_prints_per_kind_table():
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "bench", "surface", "--strict"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0].split() == ["kind", "expected", "found", "recall", "look-alikes", "FP",
                                                   "FP", "rate"]
    assert any(line.startswith("all ") and "100.0%" in line for line in proc.stdout.splitlines())


def test_text_output_separates_partial_diagnostics():
    proc = run_cli("scan", ".", "--no-color", cwd=FIXTURES / "surface_audit")  # paths print relative to the cwd
    out = proc.stdout
    assert "Scanned in part:\n  deps/requirements.txt: missing-include:" in out
    assert "  nb/train.ipynb: cell-syntax-error: 1 code cell not scanned as Python (cell 2: line 1" in out
    assert "Not scanned:\n  nb/py2.ipynb: syntax-error:" in out and "skipped 1." in out


def test_large_json_is_data_and_skipped_quietly(tmp_path):
    (tmp_path / "tokenizer.json").write_text('{"vocab": {' + ", ".join(f'"t{i}": {i}' for i in range(40000))
                                             + '}, "note": "trn1.32xlarge"}')
    (tmp_path / "job.json").write_text('{"instanceType": "trn1.32xlarge"}\n')
    _, data = scan_json(tmp_path)
    assert [(f["path"], f["rule"]) for f in data["findings"]] == [("job.json", "TRN609")]
    assert data["diagnostics"] == [] and data["summary"]["files_by_kind"] == {"json": 1}
