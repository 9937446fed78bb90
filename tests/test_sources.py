"""Rule sources are public documents a reader can open; why/fix texts are single paragraphs."""
import json
import re

import pytest

from conftest import REPO, run_cli
from trnready.catalogue import load_catalogue

CATALOGUE = load_catalogue()
PUBLIC_TORCHNEURON = ("https://github.com/aws-neuron/torch-neuronx", "https://awsdocs-neuron.readthedocs-hosted.com/",
                      "https://docs.pytorch.org/docs/stable/")


def with_source(tmp_path, rule_id: str, source_toml: str, why: str | None = None):
    """The built-in catalogue with one rule's `source` (and optionally `why`) replaced, as a team would edit it."""
    text = (REPO / "blockers.toml").read_text()
    start = text.index(f'id = "{rule_id}"')
    m = re.compile(r'^source = (\[\n.*?^\]|\[.*?\])$', re.M | re.S).search(text, start)
    text = text[:m.start()] + f"source = {source_toml}" + text[m.end():]
    if why is not None:
        w = re.compile(r'^why = """.*?"""$', re.M | re.S).search(text, start)
        text = text[:w.start()] + f'why = """{why}"""' + text[w.end():]
    path = tmp_path / "cat.toml"
    path.write_text(text)
    return path


def line_of(path, rule_id, prefix):
    lines = path.read_text().splitlines()
    start = lines.index(f'id = "{rule_id}"')
    return next(i for i, ln in enumerate(lines[start:], start + 1) if ln.startswith(prefix))


def test_every_rule_cites_public_documents_by_title_and_url():
    raw = (REPO / "blockers.toml").read_text()
    assert "seeds/" not in raw
    for r in CATALOGUE.rules:
        assert r.sources, r.id
        for s in r.sources:
            assert s.title.strip() and re.fullmatch(r"https://\S+", s.url), (r.id, s)
        if not r.id.startswith("TRN9"):  # trnready's own checks cite ruff, not TorchNeuron
            assert any(s.url.startswith(PUBLIC_TORCHNEURON) for s in r.sources), r.id
        assert r.source == "; ".join(f"{s.title} <{s.url}>" for s in r.sources)


@pytest.mark.parametrize("source,needle", [
    ('"seeds/004_905668e6b2fe0bcb.txt"', "cites an internal seeds/ file"),
    ('"PyTorch docs"', "must be a list of { title"),
    ('[{ title = "launch notes", url = "seeds/004_905668e6b2fe0bcb.txt" }]', "cites an internal seeds/ file"),
    ('[{ title = "seeds/004_905668e6b2fe0bcb.txt", url = "https://example.org/x" }]', "cites an internal seeds/ file"),
    ('[{ title = "notes", url = "file:///home/me/notes.txt" }]', "is not a public http(s) URL"),
    ('[{ url = "https://github.com/aws-neuron/torch-neuronx" }]', "must be a list of { title"),
    ('[{ title = "", url = "https://github.com/aws-neuron/torch-neuronx" }]', "must be a list of { title"),
    ("[]", "must be a list of { title"),
])
def test_a_source_that_is_not_a_public_document_is_a_catalogue_error(tmp_path, source, needle):
    cat = with_source(tmp_path, "TRN191", source)
    proc = run_cli("rules", "--catalogue", cat)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert f"{cat}:{line_of(cat, 'TRN191', 'source = ')}: entry TRN191: key 'source': " in proc.stderr
    assert needle in proc.stderr


def test_why_and_fix_are_single_paragraphs():
    for r in CATALOGUE.rules:
        assert "\n" not in r.why and "\n" not in r.fix, r.id
        assert "  " not in r.why and "  " not in r.fix, r.id


def test_line_breaks_in_catalogue_text_never_reach_annotations(tmp_path):
    cat = with_source(tmp_path, "TRN191", '[{ title = "PyTorch documentation: interpolate", '
                      'url = "https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.interpolate.html" }]',
                      why="Bilinear upsampling is\n  not in this release,\nso the op falls back.")
    src = tmp_path / "proj"
    src.mkdir()
    (src / "m.py").write_text('import torch.nn.functional as F\ny = F.interpolate(x, mode="bilinear")\n')
    proc = run_cli("scan", src, "--catalogue", cat, "--format", "github", "--exit-zero", "--no-cache")
    line = next(ln for ln in proc.stdout.splitlines() if "TRN191" in ln)
    fix = line[line.index("%0A%0AFix: ") + len("%0A%0AFix: "):line.index("%0ADocs: ")]
    assert fix.startswith("Switch to mode=") and "%0A" not in fix
    proc = run_cli("explain", "TRN191", "--catalogue", cat)
    assert "\nBilinear upsampling is not in this release, so the op falls back.\n" in proc.stdout
    assert ("\n## Sources\n- PyTorch documentation: interpolate: "
            "https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.interpolate.html\n") in proc.stdout


def test_sources_reach_explain_json_sarif_and_html(tmp_path):
    src = tmp_path / "proj"
    src.mkdir()
    (src / "m.py").write_text('import torch.nn.functional as F\ny = F.interpolate(x, mode="bicubic")\n')
    readme = "https://github.com/aws-neuron/torch-neuronx"
    title = "torch-neuronx README: TorchNeuron known limitations (Neuron 2.33 public beta)"
    proc = run_cli("explain", "TRN191")
    assert f"## Sources\n- {title}: {readme}\n" in proc.stdout and "seeds/" not in proc.stdout
    sarif, rep, html = tmp_path / "r.sarif", tmp_path / "r.json", tmp_path / "r.html"
    proc = run_cli("scan", src, "--no-cache", "--exit-zero", "--output-format", f"sarif={sarif}",
                   "--output-format", f"json={rep}", "--html", html)
    assert proc.returncode == 0, proc.stderr
    finding = json.loads(rep.read_text())["findings"][0]
    assert finding["source"].startswith(f"{title} <{readme}>; ")
    rule = json.loads(sarif.read_text())["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["helpUri"] == "https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.interpolate.html"
    assert f"- [{title}]({readme})" in rule["help"]["markdown"]
    assert f"Sources:\n- {title}: {readme}\n" in rule["help"]["text"]
    page = html.read_text()
    assert f'<a class="srcname" href="{readme}" rel="noopener noreferrer" target="_blank">{title}</a>' in page
    rules = json.loads(run_cli("rules", "--format", "json").stdout)["rules"]
    r191 = next(r for r in rules if r["id"] == "TRN191")
    assert r191["sources"][0] == {"title": title, "url": readme}


def test_team_copy_of_the_catalogue_reads_dockerfiles(tmp_path):
    """A catalogue other than the built-in one runs its line matchers in linear time (RE2); a matcher's `at` group
    must still mark the place in a Dockerfile (the RE2 match object takes no group name)."""
    cat = with_source(tmp_path, "TRN603", '[{ title = "Docker documentation: FROM", '
                      'url = "https://docs.docker.com/reference/dockerfile/#from" }]')
    src = tmp_path / "proj"
    src.mkdir()
    (src / "Dockerfile").write_text("ARG BASE=nvcr.io/nvidia/pytorch:24.05-py3\nFROM ${BASE}\nRUN pip install numpy\n")
    proc = run_cli("scan", src, "--catalogue", cat, "--format", "json", "--exit-zero", "--no-cache")
    rep = json.loads(proc.stdout)
    assert not rep["diagnostics"]
    assert [(f["rule"], f["line"]) for f in rep["findings"]] == [("TRN603", 1)]
