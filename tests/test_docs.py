"""The README and docs/ are what a newcomer reads: short README, tables that render, links that resolve,
examples that work as written."""
import json
import re

import pytest

from conftest import REPO, run_cli

README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README] + sorted(DOCS.glob("*.md")) + sorted((DOCS / "rules").glob("*.md"))
# Pages other branches add (suppressions, predicates, security, plan): linked from docs/index.md before they land.
PENDING = {"suppressions.md", "predicates.md", "security.md", "plan.md"}


def test_readme_is_short():
    assert README.stat().st_size <= 12 * 1024, f"README.md is {README.stat().st_size} bytes; move detail into docs/"


def _outside_code(text):
    """Lines that are not inside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1).startswith(fence[0]) and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield n, line


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_table_renders(page):
    """A table is a header row, a separator row, then rows with no blank line between them: a row after a
    blank line starts a new 'table' without a header and GitHub shows it as text."""
    lines = dict(_outside_code(page.read_text()))
    for n, line in lines.items():
        if not line.startswith("|"):
            continue
        prev = lines.get(n - 1, "")
        if prev.startswith("|"):
            continue
        nxt = lines.get(n + 1, "")
        assert re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", nxt), f"{page.name}:{n}: table row without a header: {line[:60]}"
        cells = line.count("|") - line.count("\\|")
        assert nxt.count("|") == cells, f"{page.name}:{n}: header and separator differ in column count"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    text = "\n".join(line for _, line in _outside_code(page.read_text()))
    text = re.sub(r"(`+).*?\1", "", text)  # inline code is not a link
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        resolved = (page.parent / path).resolve()
        if resolved.name in PENDING and resolved.parent == DOCS:
            continue
        assert resolved.exists(), f"{page.relative_to(REPO)}: broken link {target}"
        if "#" in target and resolved.suffix == ".md":
            anchor = target.split("#", 1)[1]
            assert anchor in _anchors(resolved), f"{page.relative_to(REPO)}: no heading for {target}"
    for anchor in re.findall(r"\]\(#([^)\s]+)\)", text):
        assert anchor in _anchors(page), f"{page.relative_to(REPO)}: no heading for #{anchor}"


def _anchors(page):
    """GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens."""
    heads = [ln.lstrip("#").strip() for _, ln in _outside_code(page.read_text()) if re.match(r"#{1,6} ", ln)]
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def test_every_doc_page_is_reachable_from_the_index():
    index = (DOCS / "index.md").read_text()
    for page in DOCS.glob("*.md"):
        if page.name != "index.md":
            assert f"]({page.name})" in index, f"docs/index.md does not link {page.name}"
    assert "](rules/index.md)" in index


def _block(text, lang, start):
    return re.search(rf"```{lang}\n({re.escape(start)}.*?)```", text, re.S).group(1)


def test_readme_minimal_config_works_as_written(tmp_path):
    (tmp_path / "pyproject.toml").write_text(_block(README.read_text(), "toml", "[tool.trnready]"))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text('import torch\nx = torch.zeros(2, device="cuda")\n')
    (tmp_path / "third_party").mkdir()
    (tmp_path / "third_party" / "k.py").write_text("import flash_attn\n")
    (tmp_path / "train.py").write_text('import torch\nm = torch.nn.Linear(2, 2).to("cuda")\n')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    data = json.loads(proc.stdout)
    assert [(f["path"], f["rule"]) for f in data["findings"]] == [("train.py", "TRN242")]
    assert proc.returncode == 1  # fail-on = "change"


def test_readme_ci_scan_command_works_as_written(tmp_path):
    ci = _block(README.read_text(), "yaml", "name: trnready")
    cmd = re.search(r"run: (trnready scan .*)", ci).group(1).split()
    assert "pip install tools/trnready-0.1.0-py3-none-any.whl" in ci
    project = tmp_path / "proj"
    project.mkdir()
    (project / "train.py").write_text("import flash_attn\n")
    proc = run_cli(*cmd[1:], "--no-cache", cwd=project)
    assert proc.returncode == 1  # the blocker fails the job, and the SARIF file is still written
    assert proc.stdout.startswith("::error file=train.py,line=1,")
    sarif = json.loads((project / "trnready.sarif").read_text())
    assert sarif["runs"][0]["results"][0]["ruleId"] == "TRN281"


def test_readme_quick_start_output_is_real():
    """The pasted lines are what `trnready scan examples/demo` prints (the README marks left-out lines with …)."""
    text = README.read_text()
    pasted = _block(text, "console", "$ trnready scan examples/demo").splitlines()[1:]
    proc = run_cli("scan", "examples/demo", "--no-cache", cwd=REPO)
    assert proc.returncode == 1
    real = proc.stdout.splitlines()
    at = 0
    for line in pasted:
        if line == "…":
            continue
        assert line in real[at:], f"README quick start shows a line the scan does not print in order: {line!r}"
        at = real.index(line, at) + 1
    shown = sum(1 for ln in pasted if re.match(r"  \S+:\d", ln))
    total = sum(1 for ln in real if re.match(r"  \S+:\d", ln) or re.match(r"  \S+:cell", ln))
    assert f"(`…` marks {total - shown} finding lines left out here.)" in text


def test_readme_fix_output_is_real():
    pasted = _block(README.read_text(), "console", "$ trnready fix examples/demo").splitlines()[1:]
    proc = run_cli("fix", "examples/demo", cwd=REPO)
    assert proc.returncode == 1  # changes to apply, nothing written
    out, err = proc.stdout.splitlines(), proc.stderr.splitlines()
    at = 0
    for line in pasted:
        if line == "…":
            continue
        if line in err:
            continue
        assert line in out[at:], f"README shows a fix line that `trnready fix examples/demo` does not print: {line!r}"
        at = out.index(line, at) + 1
