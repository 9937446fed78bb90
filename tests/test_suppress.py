"""Inline suppressions and their meta rules (TRN901 no reason, TRN902 unused), on real files."""
import json
import textwrap

import jsonschema

from conftest import REPO, run_cli

SCHEMA = json.loads((REPO / "trnready" / "schema" / "report.schema.json").read_text())


def scan(tmp_path, source, *args, name="m.py"):
    (tmp_path / name).write_text(textwrap.dedent(source))
    proc = run_cli("scan", "--format", "json", "--no-config", tmp_path, *args)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, SCHEMA)
    return proc, data


def found(data):
    """(line, rule, suppressed) for every finding and every place folded into one (only findings of the same
    standing fold together, so a place shares its finding's `suppressed`)."""
    return sorted({(ln, rule, f["suppressed"]) for f in data["findings"]
                   for ln, rule in [(f["line"], f["rule"])] + [(o["line"], o["rule"]) for o in f.get("occurrences") or ()]})


def test_same_line_with_reason_suppresses_and_is_not_gated(tmp_path):
    proc, data = scan(tmp_path, "import flash_attn  # trnready: ignore[TRN281] vendored, CPU fallback\n")
    assert found(data) == [(1, "TRN281", True)]
    assert data["findings"][0]["suppression_reason"] == "vendored, CPU fallback"
    assert proc.returncode == 0
    assert data["summary"]["suppressed"] == 1 and data["summary"]["by_severity"]["blocker"] == 0
    assert data["summary"]["verdict"] == "ready"


def test_reasonless_suppression_still_suppresses_but_is_reported(tmp_path):
    proc, data = scan(tmp_path, "import flash_attn  # trnready: ignore[TRN281]\n")
    assert found(data) == [(1, "TRN281", True), (1, "TRN901", False)]
    assert "suppression_reason" not in data["findings"][0]
    meta = next(f for f in data["findings"] if f["rule"] == "TRN901")
    assert meta["severity"] == "advisory" and meta["category"] == "environment"
    assert meta["column"] == 20
    assert proc.returncode == 0
    assert run_cli("scan", tmp_path, "--fail-on", "advisory").returncode == 1


def test_several_ids_prefixes_and_categories(tmp_path):
    src = """\
    import torch
    x = torch.zeros(2, dtype=torch.float64, device="cuda")  # trnready: ignore[TRN121,TRN242] CPU test only
    y = torch.zeros(2, dtype=torch.float64, device="cuda")  # trnready: ignore[TRN12, cuda-device] -- same
    z = torch.zeros(2, dtype=torch.float64, device="cuda")  # trnready: ignore[ALL]: all of it
    """
    _, data = scan(tmp_path, src)
    assert found(data) == [(2, "TRN121", True), (2, "TRN242", True), (3, "TRN121", True), (3, "TRN242", True),
                           (4, "TRN121", True), (4, "TRN242", True)]


def test_partly_used_suppression_reports_the_unused_ids(tmp_path):
    _, data = scan(tmp_path, "import flash_attn  # trnready: ignore[TRN281,TRN191,TRN9999] vendored\n")
    assert found(data) == [(1, "TRN281", True), (1, "TRN902", False)]
    msg = next(f["message"] for f in data["findings"] if f["rule"] == "TRN902")
    assert "TRN191" in msg and "TRN9999 (unknown rule selector)" in msg and "TRN281" not in msg


def test_unused_suppression(tmp_path):
    proc, data = scan(tmp_path, "import torch  # trnready: ignore[TRN281] flash-attn was removed\n")
    assert found(data) == [(1, "TRN902", False)]
    assert proc.returncode == 0


def test_suppression_for_a_rule_not_selected_in_this_run_is_not_called_unused(tmp_path):
    _, data = scan(tmp_path, "import flash_attn  # trnready: ignore[TRN281] vendored\n", "--select", "float64,TRN9")
    assert found(data) == []


def test_multi_line_statement_first_line(tmp_path):
    src = """\
    import torch.nn.functional as F
    y = F.interpolate(  # trnready: ignore[TRN191] exact filter needed, runs on CPU
        x,
        scale_factor=2,
        mode="bilinear",
    )
    z = F.interpolate(
        x, scale_factor=2, mode="bicubic",
    )  # trnready: ignore[TRN191] only the first line of a statement counts
    """
    _, data = scan(tmp_path, src)
    assert found(data) == [(2, "TRN191", True), (7, "TRN191", False), (9, "TRN902", False)]


def test_finding_inside_a_multi_line_statement_uses_the_statement_first_line(tmp_path):
    src = """\
    import torch
    model = build(  # trnready: ignore[TRN242] export script
        layers=4,
        device="cuda",
    )
    if args.gpu:  # trnready: ignore[TRN242] nothing here on this line
        d = "cpu"
        t = torch.zeros(2, device="cuda")
    """
    _, data = scan(tmp_path, src)
    lines = found(data)
    assert (4, "TRN242", True) in lines
    assert (8, "TRN242", False) in lines  # a compound statement's header does not cover its body


def test_hash_inside_a_string_is_not_a_comment(tmp_path):
    src = """\
    import flash_attn; s = "# trnready: ignore[TRN281] not a comment"
    doc = '''
    # trnready: ignore-file[ALL] inside a string
    '''
    """
    _, data = scan(tmp_path, src)
    assert found(data) == [(1, "TRN281", False)]


def test_comment_after_another_comment(tmp_path):
    _, data = scan(tmp_path, "import flash_attn  # noqa: F401  # trnready: ignore[TRN281] vendored  # type: ignore\n")
    assert found(data) == [(1, "TRN281", True)]


def test_ignore_file_in_the_leading_comment_block(tmp_path):
    src = """\
    #!/usr/bin/env python
    # -*- coding: utf-8 -*-

    # trnready: ignore-file[cuda-library, TRN242] GPU-only benchmark, never shipped
    import flash_attn
    import torch
    d = torch.device("cuda")
    x = torch.zeros(2, dtype=torch.float64)
    """
    _, data = scan(tmp_path, src)
    assert found(data) == [(5, "TRN281", True), (7, "TRN242", True), (8, "TRN121", False)]


def test_ignore_file_after_code_does_nothing_and_is_reported(tmp_path):
    src = """\
    \"\"\"Docstring first: the leading comment block is over.\"\"\"
    # trnready: ignore-file[TRN281] too late
    import flash_attn
    """
    _, data = scan(tmp_path, src)
    assert found(data) == [(2, "TRN902", False), (3, "TRN281", False)]
    assert "leading comment block" in next(f["message"] for f in data["findings"] if f["rule"] == "TRN902")


def test_reasonless_ignore_file(tmp_path):
    _, data = scan(tmp_path, "# trnready: ignore-file[TRN281]\nimport flash_attn\n")
    assert found(data) == [(1, "TRN901", False), (2, "TRN281", True)]


def test_no_suppressions_audits_everything(tmp_path):
    src = """\
    # trnready: ignore-file[TRN242]
    import flash_attn  # trnready: ignore[TRN281]
    import torch  # trnready: ignore[TRN191] stale
    d = torch.device("cuda")
    """
    proc, data = scan(tmp_path, src, "--no-suppressions")
    assert found(data) == [(2, "TRN281", False), (4, "TRN242", False)]
    assert proc.returncode == 1
    proc, data = scan(tmp_path, src)
    assert found(data) == [(1, "TRN901", False), (2, "TRN281", True), (2, "TRN901", False), (3, "TRN902", False),
                           (4, "TRN242", True)]
    assert proc.returncode == 0


def test_meta_rules_can_be_ignored_like_any_rule(tmp_path):
    (tmp_path / "trnready.toml").write_text("ignore = ['TRN9']\n")
    (tmp_path / "m.py").write_text("import flash_attn  # trnready: ignore[TRN281]\nimport os  # trnready: ignore[TRN1] x\n")
    data = json.loads(run_cli("scan", "--format", "json", tmp_path).stdout)
    assert found(data) == [(1, "TRN281", True)]


def test_suppressed_findings_show_in_text_summary_not_listing(tmp_path):
    (tmp_path / "m.py").write_text("import flash_attn  # trnready: ignore[TRN281] vendored\n")
    proc = run_cli("scan", "--no-config", tmp_path)
    assert "Suppressed: 1" in proc.stdout and "TRN281" not in proc.stdout and proc.returncode == 0


def test_undecodable_or_broken_files_never_crash_the_suppression_pass(tmp_path):
    (tmp_path / "bad.py").write_text("x = (  # trnready: ignore[TRN281]\n")
    proc, data = scan(tmp_path, "import flash_attn  # trnready: ignore[TRN281] ok\n")
    assert {d["path"]: d["kind"] for d in data["diagnostics"]} == {"bad.py": "syntax-error"}


def test_trn9xx_is_reserved_for_meta_rules():
    from trnready.catalogue import load_catalogue

    for rule in load_catalogue().rules:
        is_meta = any(m.kind == "meta" for m in rule.matchers)
        assert is_meta == rule.id.startswith("TRN9"), rule.id
        if is_meta:
            assert rule.category == "environment" and rule.severity == "advisory"


def test_meta_matcher_names_are_validated(tmp_path):
    cat = tmp_path / "c.toml"
    cat.write_text((REPO / "blockers.toml").read_text().replace('meta = ["unused-suppression"]',
                                                                 'meta = ["unused-supression"]'))
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "unknown meta check 'unused-supression'" in proc.stderr and "TRN902" in proc.stderr
