"""Report step release-snapshots: per-release requirement lists beside each other are history."""
import json

from conftest import run_cli
from trnready.project.release_snapshots import _release


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return sorted((f["path"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
                  if f["rule"] == "TRN506")


def _write(root, names):
    (root / "requirements").mkdir()
    for name in names:
        (root / "requirements" / name).write_text("torch==2.1.0\n")


def test_every_release_list_is_guarded_when_the_package_is_declared(tmp_path):
    _write(tmp_path, ["0.9.1_requirements.txt", "1.0.0_requirements.txt"])
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "1.0.0"\n')
    assert _scan(tmp_path) == [
        ("requirements/0.9.1_requirements.txt", "TRN506", "release-snapshot"),
        ("requirements/1.0.0_requirements.txt", "TRN506", "release-snapshot"),
    ]


def test_without_a_declaration_the_newest_list_stays_and_a_lone_version_is_current(tmp_path):
    _write(tmp_path, ["0.9.1_requirements.txt", "1.0.0_requirements.txt", "2.0_environment.txt"])
    assert _scan(tmp_path) == [
        ("requirements/0.9.1_requirements.txt", "TRN506", "release-snapshot"),
        ("requirements/1.0.0_requirements.txt", "TRN506", ""),
        ("requirements/2.0_environment.txt", "TRN506", ""),
    ]


def test_release_names():
    assert _release("2.0.0rc1_requirements.txt")[1] == "requirements.txt"
    assert _release("v1.2-environment.yml")[1] == "environment.yml"
    assert _release("torch2.4.0-cuda12.1.dockerfile") is None
    assert _release("requirements-cu118.txt") is None
    assert _release("2_requirements.txt") is None
