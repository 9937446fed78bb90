"""The literal prefilter is an optimisation only: findings must be identical with it on and off."""
import json

import pytest

from conftest import FIXTURES, run_cli
from trnready.api import scan_bytes
from trnready.catalogue import load_catalogue
from trnready.filekinds import kind_of as file_kind
from trnready.match import Engine

CATALOGUE = load_catalogue()
ENGINE = Engine(CATALOGUE)


def _examples():
    # Examples named like files trnready does not read (kernels/add.cpp) have nothing to compare.
    for rule in CATALOGUE.rules:
        for ex in rule.hits + rule.cleans:
            if file_kind(ex.file.rsplit("/", 1)[-1]) or "." not in ex.file:
                yield ex


@pytest.mark.parametrize("example", list(_examples()), ids=lambda ex: ex.file)
def test_catalogue_examples_same_with_and_without_prefilter(example):
    kind = file_kind(example.file.rsplit("/", 1)[-1]) or "python"
    data = example.code.encode()
    on = scan_bytes(data, example.file, kind, ENGINE, prefilter=True)
    off = scan_bytes(data, example.file, kind, ENGINE, prefilter=False)
    assert on == off


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_fixture_projects_same_with_and_without_prefilter(fixture):
    outs = []
    for extra in ([], ["--no-prefilter"]):
        proc = run_cli("scan", FIXTURES / fixture, "--format", "json", "--no-cache", *extra)
        assert proc.returncode in (0, 1), proc.stderr
        data = json.loads(proc.stdout)
        outs.append(data["findings"])
    assert outs[0] == outs[1]


def test_prefilter_skips_files_that_cannot_match():
    assert not ENGINE.may_match("import os\nprint('hello')\n")
    assert ENGINE.may_match("import torch\nx.cuda()\n")
