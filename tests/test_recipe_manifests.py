"""Conda-build recipes read as manifests, and Dockerfile requirements whose version alone comes from an ARG."""
from trnready.filekinds import kind_of
from conftest import scan_findings
from trnready.requirements import parse_conda

RECIPE = """package:
  name: graphs
requirements:
  build:
    - {{ compiler('cxx') }}
  host:
    - python >=3.7,<3.11
    - pip
  run:
    - python >=3.7,<3.11
    - pytorch >=1.8
test:
  requires:
    - python 3.8.*
"""


def test_meta_yaml_is_a_conda_manifest():
    assert kind_of("meta.yaml") == "conda"
    assert kind_of("meta.yml") == "conda"
    assert kind_of("metadata.yaml") == "yaml"


def test_recipe_requirement_lists_are_read():
    man = parse_conda(RECIPE)
    assert [r.line for r in man.pyreqs] == [7, 10]
    assert [d.name for d in man.deps] == ["pip", "torch"]


def test_only_the_requirements_section_of_a_recipe():
    man = parse_conda("build:\n  run:\n    - python 3.8.*\nabout:\n  host:\n    - python <3.10\n")
    assert man.pyreqs == [] and man.deps == []


def test_package_rule_at_the_package_line_version_rule_at_the_arg(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "Dockerfile").write_text(
        "FROM ubuntu:22.04\nARG ORT=1.16.3\nARG TV=1.13.1\n"
        "RUN pip install onnxruntime-gpu==${ORT} torch==${TV}\n")
    out = subprocess.run([sys.executable, "-m", "trnready", "scan", str(tmp_path), "--format", "json",
                          "--exit-zero", "--no-cache"], capture_output=True, text=True, check=True).stdout
    got = sorted((f["line"], f["rule"]) for f in json.loads(out)["findings"])
    assert got == [(3, "TRN506"), (4, "TRN508")]


def test_conda_build_variant_file_is_a_conda_manifest():
    # conda-build's variant file beside a recipe: its Python values are one requirement, its CUDA values `cuda` deps
    assert kind_of("conda_build_config.yaml") == "conda"
    man = parse_conda("python:\n  - 3.10\n  - '3.11'\ncuda:\n  - 12.4\nnumpy:\n  - 2.1\n")
    assert [(r.line, r.raw, len(r.alternatives)) for r in man.pyreqs] == [(2, "python 3.10, 3.11", 2)]
    assert [(d.name, d.line, d.raw) for d in man.deps] == [("cuda", 5, "cuda 12.4")]


def test_a_variant_cuda_key_with_a_cpu_variant_says_nothing():
    man = parse_conda("cuda_compiler_version:\n  - None\n  - 12.0\n")
    assert man.deps == [] and man.pyreqs == []


def test_an_environment_file_is_not_read_as_variants():
    man = parse_conda("name: env\ndependencies:\n  - python=3.12\n  - numpy\n")
    assert [d.name for d in man.deps] == ["numpy"] and [r.line for r in man.pyreqs] == [3]


def test_short_names_of_a_pip_requirements_file_are_requirements(tmp_path):
    from trnready.filekinds import kind_of

    for name in ("requirement.txt", "req.txt", "reqs.txt", "req_test.txt", "req-gpu.txt", "train_req.txt"):
        assert kind_of(name) == "requirements", name
    for name in ("request.txt", "frequency.txt", "require.txt", "readme.txt"):
        assert kind_of(name) != "requirements", name
    (tmp_path / "req_test.txt").write_text("numpy==1.26.4\nnvidia-cudnn-cu12==8.9.2.26\ntriton==2.1.0\n")
    found = {(f[1], f[3]) for f in scan_findings(tmp_path)}
    assert found == {(2, "TRN510"), (3, "TRN501")}, found
