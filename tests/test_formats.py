"""SARIF (validated against the official 2.1.0 schema), GitHub annotations, JUnit XML, several outputs per run."""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from conftest import run_cli

SARIF_SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())

SOURCE = '''import torch
import torch.nn.functional as F
import flash_attn  # trnready: ignore[TRN281] vendored, never imported on Trainium
y = F.interpolate(x, scale_factor=2,
                  mode="bilinear")
d = torch.device("cuda:0")
z = torch.zeros(2, dtype=torch.float64)
'''


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "my proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "model, v2.py").write_text(SOURCE)
    (root / "pkg" / "broken.py").write_text("def f(:\n    x.cuda()\n")
    return root


def run(*args, cwd=None):
    proc = run_cli("scan", "--no-config", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc


def test_sarif_is_valid_and_complete(project):
    proc = run(project, "--format", "sarif")
    sarif = json.loads(proc.stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    assert sarif["version"] == "2.1.0"
    run_ = sarif["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "trnready" and driver["version"] and driver["informationUri"].startswith("https://")
    ids = [r["id"] for r in driver["rules"]]
    assert ids == ["TRN121", "TRN191", "TRN242", "TRN281"]  # one descriptor per rule used, suppressed included
    by_id = {r["id"]: r for r in driver["rules"]}
    r191 = by_id["TRN191"]
    assert r191["name"] == "interpolate-bilinear-bicubic"
    assert r191["shortDescription"]["text"] == "Bilinear or bicubic interpolation"
    assert r191["fullDescription"]["text"] and r191["help"]["text"] and "Fix:" in r191["help"]["text"]
    assert r191["helpUri"].startswith("https://")
    assert r191["properties"]["category"] == "upsampling"
    assert {i: by_id[i]["defaultConfiguration"]["level"] for i in ids} == {
        "TRN121": "note", "TRN191": "error", "TRN242": "warning", "TRN281": "error"}
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.absolute().as_uri() + "/"
    results = {r["ruleId"]: r for r in run_["results"]}
    res = results["TRN191"]
    assert res["ruleIndex"] == ids.index("TRN191") and res["level"] == "error"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "pkg/model%2C%20v2.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == 4 and loc["region"]["startColumn"] == 5
    assert loc["region"]["endLine"] == 5 and loc["region"]["endColumn"] == 35
    assert len(res["partialFingerprints"]["trnready/v1"]) >= 16
    assert results["TRN242"]["level"] == "warning" and results["TRN121"]["level"] == "note"
    assert results["TRN281"]["suppressions"] == [
        {"kind": "inSource", "justification": "vendored, never imported on Trainium"}]
    assert "suppressions" not in res
    notes = run_["invocations"][0]["toolExecutionNotifications"]
    assert notes[0]["message"]["text"].startswith("syntax-error")


def test_sarif_fingerprints_match_json(project):
    sarif = json.loads(run(project, "--format", "sarif").stdout)
    data = json.loads(run(project, "--format", "json").stdout)
    assert sorted(r["partialFingerprints"]["trnready/v1"] for r in sarif["runs"][0]["results"]) == \
        sorted(f["fingerprint"] for f in data["findings"])


def test_sarif_of_a_clean_project_is_valid(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    sarif = json.loads(run(tmp_path, "--format", "sarif").stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    assert sarif["runs"][0]["results"] == [] and sarif["runs"][0]["tool"]["driver"]["rules"] == []


def test_github_annotations(project):
    proc = run("--format", "github", ".", cwd=project)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("::")]
    ann = {l.split("title=")[1].split(" ")[0]: l for l in lines if "title=TRN" in l}
    assert set(ann) == {"TRN121", "TRN191", "TRN242"}  # the suppressed TRN281 is not annotated
    assert ann["TRN191"].startswith("::error file=pkg/model%2C v2.py,line=4,col=5,endLine=5,endColumn=35,"
                                    "title=TRN191 Bilinear or bicubic interpolation::")
    assert ann["TRN242"].startswith("::warning ") and ann["TRN121"].startswith("::notice ")
    body = ann["TRN191"].split("::", 2)[2]
    assert "\n" not in body and "%0A%0AFix: " in body
    assert any(l.startswith("::warning file=pkg/broken.py,title=trnready%3A syntax-error::") for l in lines)
    assert "Verdict: not ready: 1 blocker" in proc.stdout


def test_github_escaping():
    from trnready.reporters.github import escape_data, escape_property
    assert escape_data("50% a\r\nb: c, d") == "50%25 a%0D%0Ab: c, d"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_junit_parses(project):
    proc = run(project, "--format", "junit")
    root = ET.fromstring(proc.stdout)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    cases = suite.findall("testcase")
    assert suite.get("tests") == str(len(cases)) == "5"
    failures = [c for c in cases if c.find("failure") is not None]
    assert suite.get("failures") == "3" and len(failures) == 3
    assert suite.get("skipped") == "1" and suite.get("errors") == "1"
    f191 = next(c for c in failures if c.get("name").startswith("TRN191"))
    assert f191.get("classname") == "pkg/model, v2.py" and f191.get("name") == "TRN191 pkg/model, v2.py:4:5"
    fail = f191.find("failure")
    assert fail.get("type") == "blocker" and "Fix:" in fail.text
    skipped = next(c for c in cases if c.find("skipped") is not None)
    assert skipped.get("name").startswith("TRN281")
    assert next(c for c in cases if c.find("error") is not None).find("error").get("type") == "syntax-error"


def test_junit_clean_and_control_characters(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    suite = ET.fromstring(run(tmp_path, "--format", "junit").stdout).find("testsuite")
    assert suite.get("failures") == "0" and len(suite.findall("testcase")) == 1
    (tmp_path / "esc.py").write_text('import flash_attn; s = "\x1b[31m\x07 <&>"\n')
    suite = ET.fromstring(run(tmp_path, "--format", "junit").stdout).find("testsuite")
    fail = suite.find("testcase/failure")
    assert "\\x1b" in fail.text and "<&>" in fail.text


def test_several_outputs_in_one_run_with_the_summary(project, tmp_path):
    out = tmp_path / "out"
    proc = run(project, "--write-format", f"json={out / 'r.json'}", "--write-format", f"sarif={out / 'r.sarif'}",
               "--write-format", f"junit={out / 'r.xml'}", "--write-format", f"github={out / 'gh.txt'}")
    assert proc.returncode == 1
    assert "Verdict: not ready: 1 blocker" in proc.stdout and "Suppressed: 1" in proc.stdout
    json.loads((out / "r.json").read_text())
    jsonschema.validate(json.loads((out / "r.sarif").read_text()), SARIF_SCHEMA)
    ET.fromstring((out / "r.xml").read_text())
    assert (out / "gh.txt").read_text().startswith("::")
    proc = run(project, "--format", "sarif", "-o", out / "main.sarif", "--write-format", f"junit={out / 'j.xml'}")
    assert "Report written to" in proc.stdout and "Verdict:" in proc.stdout
    jsonschema.validate(json.loads((out / "main.sarif").read_text()), SARIF_SCHEMA)
    proc = run(project, "--format", "sarif", "--write-format", f"json={out / 'x.json'}")
    json.loads(proc.stdout)
    assert "Verdict:" in proc.stderr


def test_unknown_output_format_is_exit_2(project):
    proc = run_cli("scan", project, "--write-format", "pdf=x.pdf")
    assert proc.returncode == 2 and "unknown format" in proc.stderr


SEVERITY_FILES = {
    "none": "x = 1\n",
    "advisory": "import torch\nx = torch.zeros(2, dtype=torch.float64)\n",
    "change": 'import torch\nd = torch.device("cuda")\n',
    "blocker": "import flash_attn\n",
}
EXPECTED = {  # (worst finding, --fail-on) -> exit code
    ("none", "blocker"): 0, ("none", "change"): 0, ("none", "advisory"): 0, ("none", "never"): 0,
    ("advisory", "blocker"): 0, ("advisory", "change"): 0, ("advisory", "advisory"): 1, ("advisory", "never"): 0,
    ("change", "blocker"): 0, ("change", "change"): 1, ("change", "advisory"): 1, ("change", "never"): 0,
    ("blocker", "blocker"): 1, ("blocker", "change"): 1, ("blocker", "advisory"): 1, ("blocker", "never"): 0,
}


@pytest.mark.parametrize("worst,fail_on", sorted(EXPECTED))
def test_exit_codes_under_each_fail_on(tmp_path, worst, fail_on):
    (tmp_path / "m.py").write_text(SEVERITY_FILES[worst])
    assert run_cli("scan", "--no-config", tmp_path, "--fail-on", fail_on).returncode == EXPECTED[worst, fail_on]
    # a suppressed finding never gates, whatever the threshold
    (tmp_path / "m.py").write_text(SEVERITY_FILES[worst].rstrip("\n") + "  # trnready: ignore[ALL] reviewed\n")
    if worst != "none":
        assert run_cli("scan", "--no-config", tmp_path, "--fail-on", fail_on).returncode == 0


def test_pre_commit_hook_definition():
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "trnready")
    assert hook["entry"] == "trnready scan" and hook["language"] == "python"
    files = __import__("re").compile(hook["files"])  # tests/test_adoption.py checks it against file_kind
    assert files.search("src/train.py") and files.search("nb/explore.ipynb")


def test_notebook_findings_point_at_the_ipynb_line_in_sarif_and_github(tmp_path):
    import shutil

    from conftest import REPO

    nb = tmp_path / "explore.ipynb"
    shutil.copyfile(REPO / "examples" / "demo" / "explore.ipynb", nb)
    lines = nb.read_text().splitlines()
    sarif = json.loads(run(tmp_path, "--format", "sarif").stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    for res in sarif["runs"][0]["results"]:
        line = res["locations"][0]["physicalLocation"]["region"]["startLine"]
        if res["ruleId"] == "TRN242":
            assert 'cuda' in lines[line - 1] and "TinyUNet" in lines[line - 1] or "randn" in lines[line - 1]
        assert res["properties"]["cell"] in (1, 2)
    gh = run(tmp_path, "--format", "github").stdout.splitlines()
    flash = next(l for l in gh if "TRN501" in l)
    line = int(flash.split("line=")[1].split(",")[0])
    assert "pip install flash-attn" in lines[line - 1] and "cell 2%2C line 1" in flash
    data = json.loads(run(tmp_path, "--format", "json").stdout)
    # (the move on .ipynb line 31 is the next statement of the cell: an occurrence of the finding on line 30)
    assert {f["file_line"] for f in data["findings"]} == {17, 30}
    # ... and that place carries its own .ipynb line (schema 1.5), as the finding does
    folded = [o for f in data["findings"] for o in f.get("occurrences", ())]
    assert folded and {o["file_line"] for o in folded} == {31} and "cuda" in lines[30]


def test_a_folded_place_spanning_several_lines_carries_its_end_line(tmp_path):
    # two buffers built over several lines and moved by a `.cuda()` on their last line: the second is a place of
    # the first (one run of statements), and its `.cuda()` five lines down is inside the place's span (schema 1.6)
    (tmp_path / "cache.py").write_text(
        "import torch\n\n\nclass Cache:\n    def __init__(self, n, d):\n"
        "        self.k = torch.zeros(\n            (n, d)\n        ).cuda()\n"
        "        self.v = torch.zeros(\n            (n,\n             d)\n        ).cuda()\n")
    data = json.loads(run(tmp_path, "--format", "json").stdout)
    from conftest import REPO

    jsonschema.validate(data, json.loads((REPO / "trnready" / "schema" / "report.schema.json").read_text()))
    (f,) = [f for f in data["findings"] if f["rule"] == "TRN241"]
    assert (f["line"], f["end_line"]) == (6, 8)
    assert [(o["line"], o["end_line"]) for o in f["occurrences"]] == [(9, 12)]
