"""bench/precision.py on a small git repository: recorded verdicts are re-checked against a real scan."""
import csv
import os
import re
import subprocess
import sys

from conftest import REPO

MODEL = """import torch
x = torch.randn(3).cuda()
if torch.cuda.is_available():
    torch.cuda.synchronize()
y = torch.randn(3)
d = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if torch.cuda.is_available():
    e = torch.device("cuda")
else:
    e = torch.device("cpu")
"""
FIELDS = ["draw", "repository", "commit", "path", "line", "column", "rule", "category", "severity",
          "verdict", "fp_class", "kept_line", "reason"]


def _checkout(tmp_path, name, text):
    """A one-file checkout under repos/demo and its bare mirror under mirrors/acme+demo/repo; the commit."""
    src = tmp_path / "src"
    src.mkdir()
    (src / name).write_text(text)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(src)]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", name], check=True)
    subprocess.run(git + ["commit", "-qm", "demo"], check=True)
    commit = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    mirror = tmp_path / "mirrors" / "acme+demo" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(src), str(mirror)], check=True)
    checkout = tmp_path / "repos" / "demo"
    checkout.mkdir(parents=True)
    (checkout / name).write_text(text)
    return commit


def make_repo(tmp_path):
    """A checkout under repos/demo and its bare mirror under mirrors/acme+demo/repo."""
    return _checkout(tmp_path, "model.py", MODEL)


def verdict(commit, line, rule, category, verdict, fp_class="", severity="change", kept_line=""):
    return {"draw": "stratified", "repository": "acme/demo", "commit": commit, "path": "model.py",
            "line": line, "column": 1, "rule": rule, "category": category, "severity": severity,
            "verdict": verdict, "fp_class": fp_class, "kept_line": kept_line, "reason": "test"}


def run_bench(tmp_path, rows, *extra):
    table = tmp_path / "verdicts.csv"
    with table.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, str(REPO / "bench" / "precision.py"), "--verdicts", str(table),
                           "--repos", str(tmp_path / "repos"), "--mirrors", str(tmp_path / "mirrors"), *extra],
                          capture_output=True, text=True, env=env, timeout=600)


def test_fp_still_reported_and_tp_kept(tmp_path):
    commit = make_repo(tmp_path)
    proc = run_bench(tmp_path, [
        verdict(commit, 2, "TRN241", "cuda-device", "tp"),
        verdict(commit, 4, "TRN243", "cuda-device", "fp", "guarded-by-cuda-check"),
        # Two cuda-device findings on one line: the second is a duplicate, folded into the first.
        verdict(commit, 6, "TRN243", "cuda-device", "duplicate", "duplicate", kept_line="6"),
    ])
    assert proc.returncode == 0, proc.stderr
    assert "3 verdicts checked in 1 repositories" in proc.stdout
    # The CUDA-guarded call is gone since the neuron-guarded predicate, the duplicate since one finding per thing.
    assert "fp still reported: 0\n" in proc.stdout
    assert "tp lost: 0" in proc.stdout
    assert re.search(r"cuda-device +3 +1 +33.3% +1 +0 +100.0%", proc.stdout), proc.stdout


def test_tp_folded_into_another_finding_is_kept(tmp_path):
    commit = make_repo(tmp_path)
    # Line 6's availability check is folded into the device string of the same line (one cuda-device finding
    # per line): the place is still on the report, as an occurrence of that finding.
    proc = run_bench(tmp_path, [verdict(commit, 6, "TRN243", "cuda-device", "tp"),
                                verdict(commit, 6, "TRN241", "cuda-device", "tp")])
    assert proc.returncode == 1, proc.stdout
    assert "tp lost: 1\n  acme/demo:model.py:6 TRN241 [tp] test" in proc.stdout


def test_gone_fp_and_lost_tp(tmp_path):
    commit = make_repo(tmp_path)
    # Line 5 has no finding: a false positive recorded there is gone, a true positive is lost.
    proc = run_bench(tmp_path, [
        verdict(commit, 5, "TRN241", "cuda-device", "fp", "cpu-only-code"),
        verdict(commit, 5, "TRN121", "float64", "tp"),
    ])
    assert proc.returncode == 1, proc.stderr
    assert "fp still reported: 0" in proc.stdout
    assert "tp lost: 1\n  acme/demo:model.py:5 TRN121 [tp] test" in proc.stdout


def test_changed_checkout_is_skipped(tmp_path):
    commit = make_repo(tmp_path)
    (tmp_path / "repos" / "demo" / "model.py").write_text(MODEL + "z = 1\n")
    proc = run_bench(tmp_path, [verdict(commit, 2, "TRN241", "cuda-device", "tp")])
    assert proc.returncode == 2
    assert f"acme/demo (1 verdicts): model.py differs from {commit[:12]}" in proc.stdout


def test_draw_option_keeps_only_the_named_draws(tmp_path):
    commit = make_repo(tmp_path)
    later = {**verdict(commit, 6, "TRN243", "cuda-device", "duplicate", "duplicate", kept_line="6"),
             "draw": "after-1"}
    rows = [verdict(commit, 2, "TRN241", "cuda-device", "tp"), later]
    proc = run_bench(tmp_path, rows, "--draw", "after-1")
    # Only the after-1 verdict is checked; the duplicate it records is folded away since one-per-thing.
    assert proc.returncode == 0, proc.stdout
    assert "1 verdicts checked in 1 repositories" in proc.stdout
    assert "by draw: after-1 0/1 = 0.0%" in proc.stdout and "fp still reported: 0" in proc.stdout
    proc = run_bench(tmp_path, rows, "--draw", "stratified")
    assert proc.returncode == 0, proc.stdout
    assert "by draw: stratified 1/1 = 100.0% -> now 100.0%" in proc.stdout


def test_sampler_draws_from_the_named_repositories_only(tmp_path):
    commit = make_repo(tmp_path)
    other = tmp_path / "repos" / "other"
    other.mkdir()
    (other / "train.py").write_text("import torch\nz = torch.zeros(2).cuda()\n")
    listing = tmp_path / "repos.csv"
    listing.write_text(f"repository,commit\nacme/demo,{commit}\nacme/other,0\n")
    out = tmp_path / "draw.csv"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "precision_sample.py"),
                           "--repos", str(tmp_path / "repos"), "--repos-csv", str(listing),
                           "--only", "acme/demo", "--draw", "after-9", "--uniform", "0", "--seed", "5",
                           "--out", str(out)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    # Line 4 sits under torch.cuda.is_available() and is not on the report, nor is the check of line 3
    # (its branch places nothing), the two cuda-device findings of line 6 are one finding, so are the check of
    # line 7 and the device string it picks on line 8, and the other repository is not pooled.
    assert sorted((r["draw"], r["repository"], r["path"], r["line"]) for r in rows) == [
        ("after-9", "acme/demo", "model.py", "2"), ("after-9", "acme/demo", "model.py", "6"),
        ("after-9", "acme/demo", "model.py", "7")]
    assert "3 findings pooled, 3 drawn" in proc.stderr


NOTEBOOK = {"cells": [
    {"cell_type": "code", "metadata": {}, "source": ["import torch\n", "a = torch.randn(2).cuda()\n"]},
    {"cell_type": "code", "metadata": {}, "source": ["import torch\n", "b = torch.randn(3).cuda()\n"]},
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def make_notebook_repo(tmp_path):
    """A checkout holding one notebook whose two cells each report on their line 2."""
    import json

    return _checkout(tmp_path, "demo.ipynb", json.dumps(NOTEBOOK, indent=1))


def test_notebook_findings_are_drawn_and_matched_by_their_line_in_the_file(tmp_path):
    """A cell line names no single line of a notebook (both cells report on their line 2): the sampler writes
    each finding's line in the .ipynb text, and the bench finds a verdict recorded on it."""
    commit = make_notebook_repo(tmp_path)
    listing = tmp_path / "repos.csv"
    listing.write_text(f"repository,commit\nacme/demo,{commit}\n")
    out = tmp_path / "draw.csv"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "precision_sample.py"),
                           "--repos", str(tmp_path / "repos"), "--repos-csv", str(listing),
                           "--draw", "nb", "--uniform", "0", "--seed", "5", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    text = (tmp_path / "repos" / "demo" / "demo.ipynb").read_text().splitlines()
    lines = sorted(int(r["line"]) for r in rows)
    assert len(lines) == 2 and all(".cuda()" in text[n - 1] for n in lines)
    # one verdict on the second cell's line in the file: a tp kept; the first cell's, an fp still reported
    got = run_bench(tmp_path, [
        {**verdict(commit, lines[1], "TRN241", "cuda-device", "tp"), "path": "demo.ipynb"},
        {**verdict(commit, lines[0], "TRN241", "cuda-device", "fp", "other"), "path": "demo.ipynb"}])
    assert "tp lost: 0" in got.stdout
    assert f"demo.ipynb:{lines[0]} TRN241" in got.stdout
