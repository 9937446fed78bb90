"""docs/rules/ is generated from blockers.toml: the committed pages must match the catalogue."""
import subprocess
import sys

from conftest import REPO
from trnready.catalogue import load_catalogue

GEN = REPO / "scripts" / "gen_rule_docs.py"
DOCS = REPO / "docs" / "rules"
REGENERATE = "python scripts/gen_rule_docs.py"


def gen(*args):
    return subprocess.run([sys.executable, str(GEN), *map(str, args)], capture_output=True, text=True, timeout=300)


def test_committed_rule_pages_are_up_to_date(tmp_path):
    proc = gen("--out", tmp_path)
    assert proc.returncode == 0, proc.stderr
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.md")}
    committed = {p.name: p.read_text() for p in DOCS.glob("*.md")}
    stale = sorted(n for n in fresh.keys() | committed.keys() if fresh.get(n) != committed.get(n))
    assert not stale, f"docs/rules is stale ({', '.join(stale)}): run `{REGENERATE}` and commit the result"
    ids = {r.id for r in load_catalogue().rules}
    assert set(fresh) == {f"{i}.md" for i in ids} | {"index.md"}


def test_check_names_the_stale_page_and_how_to_regenerate(tmp_path):
    assert gen("--out", tmp_path).returncode == 0
    assert gen("--out", tmp_path, "--check").returncode == 0
    page = tmp_path / "TRN191.md"
    page.write_text(page.read_text().replace("Bilinear", "Trilinear"))
    (tmp_path / "TRN998.md").write_text("old rule\n")
    proc = gen("--out", tmp_path, "--check")
    assert proc.returncode == 1
    assert "TRN191.md" in proc.stderr and "TRN998.md (no such rule)" in proc.stderr
    assert f"run `{REGENERATE}`" in proc.stderr
    proc = gen("--out", tmp_path)
    assert proc.returncode == 0 and "1 written, 1 removed" in proc.stdout
    assert not (tmp_path / "TRN998.md").exists() and "Trilinear" not in page.read_text()


def test_a_rule_page_has_what_why_fix_examples_and_sources(tmp_path):
    assert gen("--out", tmp_path).returncode == 0
    page = (tmp_path / "TRN191.md").read_text()
    assert page.startswith("<!-- Generated from blockers.toml")
    assert "# TRN191: Bilinear or bicubic interpolation\n" in page
    assert "category [upsampling](index.md#upsampling) · severity **blocker**" in page
    for heading in ("## What it flags", "## Why it matters", "## Fix (suggestion", "## Examples", "## Sources"):
        assert f"\n{heading}" in page, heading
    assert ("- call of `torch.nn.Upsample`, where `mode` (position 2) is one of 'bilinear', 'bicubic' "
            "(default 'nearest')\n") in page
    assert 'Flagged (`example.py`):\n\n```python\nimport torch.nn.functional as F\n' in page
    assert "Not flagged (`example.py`):" in page
    assert "Use instead:\n\n```python\ny = F.interpolate(x, scale_factor=2, mode=\"nearest\")\n```" in page
    assert ("- [torch-neuronx README: TorchNeuron known limitations (Neuron 2.33 public beta)]"
            "(https://github.com/aws-neuron/torch-neuronx)\n") in page
    rewrite = (tmp_path / "TRN242.md").read_text()
    assert "## Automatic fix (`trnready fix`)" in rewrite
    req = (tmp_path / "TRN511.md").read_text()
    assert "dependency on `torch-neuronx` whose highest allowed version is in `<2.13.3`" in req
    assert "(`requirements.txt`):\n\n```text\n" in req


def test_index_tables_render(tmp_path):
    """Every category table is one block: header, separator, then rows with no blank line in between."""
    assert gen("--out", tmp_path).returncode == 0
    lines = (tmp_path / "index.md").read_text().splitlines()
    cat = load_catalogue()
    rows = [ln for ln in lines if ln.startswith("| [TRN")]
    assert len(rows) == len(cat.rules)
    for i, ln in enumerate(lines):
        if ln.startswith("| [TRN"):
            assert lines[i - 1].startswith("|"), f"row {ln!r} is not inside a table"
            assert ln.count(" | ") == 2, ln
