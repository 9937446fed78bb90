"""Conda-build recipes read as manifests, and Dockerfile requirements whose version alone comes from an ARG."""
from trnready.filekinds import kind_of
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
