"""The migration plan: phase and effort are catalogue data, counted the same way in JSON and SARIF."""
import json
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO, run_cli
from trnready.catalogue import CatalogueError, load_catalogue
from trnready.model import EFFORTS, PHASES

SCHEMA = json.loads((REPO / "trnready" / "schema" / "report.schema.json").read_text())

SOURCE = '''import torch
import flash_attn
import torch.nn.functional as F
x = torch.zeros(2, device="cuda")
y = F.interpolate(x, scale_factor=2, mode="bilinear")
fast = torch.compile(model, dynamic=True)
dev = torch.device(name)
'''


def _scan(tmp_path, *extra):
    (tmp_path / "train.py").write_text(SOURCE)
    (tmp_path / "requirements.txt").write_text("torch==2.3.0\nflash-attn>=2\n")
    proc = run_cli("scan", "--no-config", "--no-cache", tmp_path, "--format", "json", "--exit-zero", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_builtin_rule_names_its_phase_and_effort():
    text = (REPO / "blockers.toml").read_text()
    cat = load_catalogue()
    assert text.count("\nphase = ") == len(cat.rules) and text.count("\neffort = ") == len(cat.rules)
    for r in cat.rules:
        assert r.phase in PHASES and r.effort in EFFORTS
        assert (r.effort == "automatic") == bool(r.rewrites), r.id
    assert set(cat.plan_text["phases"]) == set(PHASES) and set(cat.plan_text["efforts"]) == set(EFFORTS)
    assert all("\n" not in v["advice"] for v in cat.plan_text["phases"].values())


def test_plan_counts_agree_with_the_findings(tmp_path):
    report = _scan(tmp_path)
    jsonschema.validate(report, SCHEMA)
    assert report["schema_version"] == "1.6"
    plan = report["plan"]
    active = [f for f in report["findings"] if not f["suppressed"]]
    assert [p["id"] for p in plan["phases"]] == list(PHASES)
    assert sum(p["items"] for p in plan["phases"]) == len(active)
    assert plan["fixable"] == sum(1 for f in active if f["fixable"] and f["confidence"] == "high") \
        == plan["by_effort"]["automatic"]
    by = {(f["rule"], f["line"]): (f["phase"], f["effort"]) for f in active}
    assert by[("TRN242", 4)] == ("eager-port", "automatic")  # trnready fix rewrites the device string
    assert by[("TRN191", 5)] == ("unsupported-features", "local-edit")
    assert by[("TRN101", 6)] == ("compile-readiness", "local-edit")
    assert by[("TRN506", 1)] == ("environment", "local-edit")
    # flash-attn is one redesign item, named once with the files it touches (import and requirement rules differ)
    names = {i["rule"]: i for i in plan["redesign"]}
    assert names["TRN281"]["files"] == 1 and names["TRN281"]["occurrences"] == 1
    assert names["TRN501"]["phase"] == "eager-port"
    env = plan["phases"][0]
    assert env["items"] == 1 and env["rules"] == ["TRN506"] and env["by_severity"]["change"] == 1


def test_sarif_carries_phase_and_effort(tmp_path):
    (tmp_path / "train.py").write_text(SOURCE)
    proc = run_cli("scan", "--no-config", "--no-cache", tmp_path, "--format", "sarif", "--exit-zero")
    run = json.loads(proc.stdout)["runs"][0]
    res = {r["ruleId"]: r["properties"] for r in run["results"]}
    assert res["TRN242"]["phase"] == "eager-port" and res["TRN242"]["effort"] == "automatic"
    assert res["TRN281"]["effort"] == "redesign"
    rules = {r["id"]: r["properties"] for r in run["tool"]["driver"]["rules"]}
    assert rules["TRN101"]["phase"] == "compile-readiness"


@pytest.mark.parametrize("body, key, message", [
    ('phase = "later"', "phase", "unknown phase 'later'"),
    ('effort = "huge"', "effort", "unknown effort 'huge'"),
    ('effort = "automatic"', "effort", "effort 'automatic' needs a [[rule.rewrite]]"),
])
def test_bad_phase_or_effort_is_one_line_naming_key(tmp_path, body, key, message):
    cat = tmp_path / "team.toml"
    cat.write_text(f'''[[rule]]
id = "ACME101"
name = "x"
category = "float64"
severity = "advisory"
{body}
title = "t"
why = "w"
fix = "f"
source = [{{ title = "PyTorch docs", url = "https://docs.pytorch.org/docs/stable/" }}]
docs = "https://example.org/"
[[rule.match]]
call = ["torch.foo"]
[rule.examples]
hit = ["import torch\\ntorch.foo()"]
clean = ["bar()"]
''')
    with pytest.raises(CatalogueError) as e:
        load_catalogue(extra=[cat])
    assert str(e.value).startswith(f"{cat}:6: entry ACME101: key '{key}': {message}")


def test_text_markdown_and_explain_show_the_plan(tmp_path):
    (tmp_path / "train.py").write_text(SOURCE)
    (tmp_path / "requirements.txt").write_text("torch==2.3.0\nflash-attn>=2\n")
    report = _scan(tmp_path)
    phases = [p for p in report["plan"]["phases"] if p["items"]]
    text = run_cli("scan", "--no-config", "--no-cache", tmp_path, "--exit-zero").stdout
    lines = text.splitlines()
    at = lines.index("Plan (automatic / local edit / redesign):")
    for n, p in enumerate(phases, 1):
        e = p["by_effort"]
        assert lines[at + n].split() == [f"{n}.", *p["title"].split(), str(e["automatic"]), "/",
                                         str(e["local-edit"]), "/", str(e["redesign"])]
    assert lines[at + len(phases) + 1].startswith("Verdict: ")
    md = run_cli("scan", "--no-config", "--no-cache", tmp_path, "--format", "markdown", "--exit-zero").stdout
    for n, p in enumerate(phases, 1):
        e = p["by_effort"]
        assert f"| {n}. {p['title']} | {e['automatic']} | {e['local-edit']} | {e['redesign']} |" in md
    assert f"`trnready fix --write` clears {report['plan']['fixable']} item(s)." in md
    assert "flash-attn (CUDA-only kernels) (TRN281, 1 file)" in md
    explain = run_cli("explain", "TRN281").stdout.splitlines()
    assert explain[1] == "Phase: eager-port · effort: redesign (docs/plan.md)"
