"""Hostile repositories (issue 18): each test builds the attack in a temporary directory and checks
that trnready runs nothing the repository configures, writes nothing outside, and turns the bad
input into a diagnostic or a one-line error."""
import json
import os
import shutil
import stat
import subprocess
import textwrap

import pytest

from conftest import run_cli

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                    "-c", "core.hooksPath=/dev/null", *args], cwd=cwd, check=True, capture_output=True)


# -- item 3: --changed-since runs nothing the scanned repository configures --------------------

@needs_git
def test_changed_since_runs_no_command_from_the_repository_config(tmp_path):
    marker = tmp_path / "marker"
    hook = tmp_path / "hook.sh"
    hook.write_text(f'#!/bin/sh\necho "$0 $*" >> {marker}\ncat\n')
    hook.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("post-index-change", "post-checkout", "pre-commit", "reference-transaction", "fsmonitor-watchman"):
        shutil.copy(hook, hooks / name)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "a.py").write_text("import torch\n")
    (repo / "b.py").write_text("x = 1\n")
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n*.py filter=Other.Name\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    h = str(hook)
    for key, value in [("core.fsmonitor", h), ("filter.evil.clean", h), ("filter.evil.smudge", h),
                       ("filter.evil.process", h), ("filter.evil.required", "true"),
                       ("filter.Other.Name.clean", h), ("diff.external", h), ("diff.evil.textconv", h),
                       ("diff.evil.command", h), ("core.pager", h), ("pager.diff", h), ("core.hooksPath", str(hooks)),
                       ("core.sshCommand", h), ("credential.helper", h), ("core.askPass", h)]:
        git(repo, "config", key, value)
    (repo / "a.py").write_text("import torch\nimport flash_attn\n")  # changed, same directory
    os.utime(repo / "b.py", (1, 1))  # stat-dirty, content unchanged: git would re-hash it through the filter
    (repo / "new.py").write_text("import flash_attn\n")
    proc = run_cli("scan", "--format", "json", "--no-config", "--no-cache", repo, "--changed-since", "base")
    assert proc.returncode == 1, proc.stderr
    assert sorted({f["path"] for f in json.loads(proc.stdout)["findings"]}) == ["a.py", "new.py"]
    assert not marker.exists(), marker.read_text()


# -- item 2: the cache key holds every input of a file's result -------------------------------

def scan_json(*args, env=None):
    proc = run_cli("scan", "--format", "json", "--no-config", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    data.pop("generated_at", None)
    return proc.returncode, data


def test_cache_sees_a_change_in_an_included_requirements_file(tmp_path):
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    (repo / "deps").mkdir(parents=True)
    (repo / "requirements.txt").write_text("-r deps/common.pip\n-c constraints/pins.txt\nnumpy\n")
    (repo / "deps" / "common.pip").write_text("requests\n")
    env = {"TRNREADY_CACHE_DIR": str(cache)}
    assert scan_json(repo, env=env)[0] == 0
    (repo / "deps" / "common.pip").write_text("requests\nflash-attn==2.5.0\n")
    code, warm = scan_json(repo, env=env)
    cold_code, cold = scan_json(repo, "--no-cache")
    assert (code, warm["findings"]) == (cold_code, cold["findings"]) and code == 1
    # a constraints file that was missing appears: the missing-include diagnostic goes away
    assert any(d["kind"] == "missing-include" for d in warm["diagnostics"])
    (repo / "constraints").mkdir()
    (repo / "constraints" / "pins.txt").write_text("requests<3\n")
    code, warm = scan_json(repo, env=env)
    assert not any(d["kind"] == "missing-include" for d in warm["diagnostics"])
    assert warm["diagnostics"] == scan_json(repo, "--no-cache")[1]["diagnostics"]
    # an edit two includes deep is seen too
    (repo / "deps" / "common.pip").write_text("-r more.pip\n")
    (repo / "deps" / "more.pip").write_text("requests\n")
    assert scan_json(repo, env=env)[0] == 0
    (repo / "deps" / "more.pip").write_text("flash-attn\n")
    assert scan_json(repo, env=env)[0] == 1


def test_cache_entries_of_the_wrong_shape_are_misses(tmp_path):
    import sqlite3

    repo, cache = tmp_path / "repo", tmp_path / "cache"
    repo.mkdir()
    (repo / "train.py").write_text('import torch\nx = torch.randn(2).cuda()\n')
    (repo / "requirements.txt").write_text("flash-attn\n")
    env = {"TRNREADY_CACHE_DIR": str(cache)}
    expected = scan_json(repo, "--no-cache")
    shapes = ['{"findings": [{"rule": 1}], "diag": null}', '[]', '{"findings": 5, "diag": null}',
              '{"findings": [], "diag": {"path": 1, "kind": [], "message": null}}', '"text"', 'null',
              ]
    for shape in shapes:
        assert scan_json(repo, env=env) == expected  # fills the cache
        (db,) = cache.glob("results-v*.sqlite")
        with sqlite3.connect(db) as con:
            rows = con.execute("SELECT key, data FROM results").fetchall()
            for key, data in rows:
                entry = json.loads(data)
                # (a project step's memo, a list, is among the rows: it too gets a wrong shape below)
                if isinstance(entry, dict) and entry.get("findings"):  # one field of the wrong type
                    entry["findings"][0]["line"] = "3"
                    con.execute("UPDATE results SET data = ? WHERE key = ?", (json.dumps(entry), key))
                    break
            con.execute("UPDATE results SET data = ? WHERE key <> ?", (shape, key))
            con.execute("UPDATE stats SET data = ?", ('{"digest": 7, "mentions": [[1]]}',))
        assert scan_json(repo, env=env) == expected


# -- item 4: config and catalogue files are bounded regular files; user regexes cannot hang ----

def line_rule(pattern: str, rid: str = "ACME201") -> str:
    return textwrap.dedent(f'''
        [[rule]]
        id = "{rid}"
        name = "acme-line"
        category = "environment"
        severity = "blocker"
        title = "a line the team forbids"
        why = "Team rule."
        fix = "Remove it."
        source = [{{ title = "Team wiki", url = "https://example.com/wiki" }}]
        docs = "https://example.com/acme"

        [[rule.match]]
        line = ['{pattern}']
        files = ["shell"]

        [rule.examples]
        hit = [{{ file = "run.sh", code = "aaaa" }}]
        clean = [{{ file = "run.sh", code = "echo ok" }}]
        ''')


def one_line_error(proc, *needles):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def test_repository_catalogue_pointing_at_dev_zero_is_refused(tmp_path):
    (tmp_path / "a.py").write_text("import torch\n")
    (tmp_path / "trnready.toml").write_text('catalogue = "rules.toml"\n')
    (tmp_path / "rules.toml").symlink_to("/dev/zero")
    one_line_error(run_cli("scan", tmp_path), "rules.toml", "character device")
    (tmp_path / "rules.toml").unlink()
    os.mkfifo(tmp_path / "rules.toml")  # would block forever on open
    one_line_error(run_cli("scan", tmp_path), "rules.toml", "FIFO")
    (tmp_path / "rules.toml").unlink()
    (tmp_path / "trnready.toml").write_text('extend-catalogue = ["big.toml"]\n')
    with open(tmp_path / "big.toml", "wb") as fh:  # sparse: 9 MB of zeros costs no disk
        fh.truncate(9 * 1024 * 1024)
    one_line_error(run_cli("scan", tmp_path), "big.toml", "byte limit")


def test_config_file_that_is_a_device_or_fifo_is_refused(tmp_path):
    (tmp_path / "a.py").write_text("import torch\n")
    (tmp_path / "trnready.toml").symlink_to("/dev/zero")
    one_line_error(run_cli("scan", tmp_path), "trnready.toml", "character device")
    fifo = tmp_path / "cfg.toml"
    os.mkfifo(fifo)
    one_line_error(run_cli("scan", "--config", fifo, tmp_path / "a.py"), "cfg.toml", "FIFO")
    one_line_error(run_cli("rules", "--catalogue", fifo), "cfg.toml", "FIFO")
    one_line_error(run_cli("scan", "--no-config", "--baseline", fifo, tmp_path / "a.py"), "cfg.toml", "FIFO")


def test_exponential_user_regex_runs_in_linear_time(tmp_path):
    (tmp_path / "rules.toml").write_text(line_rule("(a+)+$"))
    (tmp_path / "trnready.toml").write_text('extend-catalogue = ["rules.toml"]\n')
    # 31 characters hang Python's re for minutes; 9,000 (under the line cap) must still be immediate.
    (tmp_path / "run.sh").write_text("a" * 31 + "!\n" + "a" * 9_000 + "!\n" + "aaa\n")
    proc = run_cli("scan", "--format", "json", "--no-cache", tmp_path)
    assert proc.returncode == 1, proc.stderr
    hits = [(f["rule"], f["line"]) for f in json.loads(proc.stdout)["findings"]]
    assert hits == [("ACME201", 3)]


@pytest.mark.parametrize("pattern,problem", [
    (r"(?<!x)(a+)+$", "a quantifier over a part that repeats"),
    (r"(?=a)(a|ab)*c", "a quantifier over a part that repeats"),
    (r"(a)\1", "a backreference"),
])
def test_user_regex_that_could_backtrack_is_a_catalogue_error_naming_the_rule(tmp_path, pattern, problem):
    (tmp_path / "rules.toml").write_text(line_rule(pattern))
    (tmp_path / "trnready.toml").write_text('extend-catalogue = ["rules.toml"]\n')
    (tmp_path / "run.sh").write_text("a" * 40 + "!\n")
    one_line_error(run_cli("scan", tmp_path), "rules.toml", "entry ACME201", "key 'match.line'", problem)


def test_user_regex_with_lookaround_and_no_nesting_still_works(tmp_path):
    (tmp_path / "rules.toml").write_text(line_rule(r"\bCUDA_HOME\b(?!\s*=\s*$)"))
    (tmp_path / "trnready.toml").write_text('extend-catalogue = ["rules.toml"]\n')
    (tmp_path / "run.sh").write_text("export CUDA_HOME=/usr/local/cuda\nCUDA_HOME=\n")
    (tmp_path / "rules.toml").write_text(line_rule(r"\bCUDA_HOME\b(?!\s*=\s*$)").replace('code = "aaaa"', 'code = "CUDA_HOME=/x"'))
    proc = run_cli("scan", "--format", "json", "--no-cache", tmp_path)
    assert [(f["rule"], f["line"]) for f in json.loads(proc.stdout)["findings"]] == [("ACME201", 1)]


# -- item 6: report size is bounded ----------------------------------------------------------

def test_many_findings_on_one_long_line_fold_into_one_bounded_finding(tmp_path):
    (tmp_path / "a.py").write_text("import torch\nx = torch.zeros(1)\n" + "x.cuda(); " * 12000 + "\n")
    out = tmp_path / "r.json"
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", "-o", out, "--fail-on", "change", tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert out.stat().st_size < 200_000  # was 1.3 GB
    data = json.loads(out.read_text())
    # One category on one line is one finding; the places folded into it are capped.
    (f,) = data["findings"]
    assert f["line"] == 3 and len(f["occurrences"]) == 100 and {o["line"] for o in f["occurrences"]} == {3}
    assert len(f["snippet"]) <= 302 and len(f["message"]) <= 500 and "x.cuda()" in f["snippet"]
    assert data["summary"]["files_scanned"] == 1


def test_the_file_cap_keeps_every_rule_and_the_most_severe_findings(tmp_path):
    # each move in a block of its own (a run of neighbouring statements would be one finding)
    (tmp_path / "a.py").write_text("import torch\nx = torch.zeros(1)\n" + "if x:\n    x.cuda()\n" * 1500
                                   + "import flash_attn\n")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path)
    assert proc.returncode == 1, proc.stderr  # the blocker on the last line still gates
    data = json.loads(proc.stdout)
    assert len(data["findings"]) == 1000
    assert [f["line"] for f in data["findings"] if f["severity"] == "blocker"] == [3003]
    assert [d["kind"] for d in data["diagnostics"]] == ["too-many-findings"]


def test_a_long_line_is_cut_to_a_window_around_the_match(tmp_path):
    (tmp_path / "a.py").write_text("import torch\n" + "y = 1; " * 5000 + "x = torch.zeros(1).cuda()\n")
    data = json.loads(run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path).stdout)
    (f,) = data["findings"]
    assert f["snippet"].startswith("…") and ".cuda()" in f["snippet"] and len(f["snippet"]) <= 302


# -- item 7: odd text is one file's diagnostic ---------------------------------------------------

FORMATS = ("text", "json", "sarif", "html", "github", "junit")


def test_lone_surrogate_in_a_notebook_source_is_a_diagnostic(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": ["!pip install flash-attn  # \ud800\n", "import torch\n"],
                     "metadata": {}, "outputs": [], "execution_count": None},
                    {"cell_type": "code", "source": ['x = "\udc80"; y = torch.zeros(1).cuda()\n'],
                     "metadata": {}, "outputs": [], "execution_count": None}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))  # json.dumps spells the surrogates as \ud800
    (tmp_path / "b.py").write_text("import flash_attn\n")
    for fmt in FORMATS:
        out = tmp_path / f"report.{fmt}"
        proc = run_cli("scan", "--no-config", "--no-cache", "--format", fmt, "-o", out, tmp_path)
        assert proc.returncode == 1, (fmt, proc.stderr)
        assert "internal error" not in proc.stderr
    data = json.loads((tmp_path / "report.json").read_text())
    assert sorted((f["path"], f.get("cell"), f["rule"]) for f in data["findings"]) == [
        ("b.py", None, "TRN281"), ("nb.ipynb", 0, "TRN501"), ("nb.ipynb", 1, "TRN241")]
    assert data["diagnostics"] == [{"path": "nb.ipynb", "kind": "invalid-text",
                                    "message": "lone surrogate code points in cells 1, 2 replaced with U+FFFD"}]
    assert data["summary"]["files_scanned"] == 2


def test_file_name_with_non_utf8_bytes_is_reported_escaped(tmp_path):
    name = os.fsdecode(b"bad\xff\xfename.py")
    (tmp_path / name).write_text("import flash_attn\n")
    (tmp_path / "ok.py").write_text("import flash_attn\n")
    for fmt in FORMATS:
        out = tmp_path / f"report.{fmt}"
        proc = run_cli("scan", "--no-config", "--no-cache", "--format", fmt, "-o", out, tmp_path)
        assert proc.returncode == 1, (fmt, proc.stderr)
    data = json.loads((tmp_path / "report.json").read_text())
    assert sorted(f["path"] for f in data["findings"]) == ["bad\\xff\\xfename.py", "ok.py"]
    assert [(d["path"], d["kind"]) for d in data["diagnostics"]] == [("bad\\xff\\xfename.py", "undecodable-name")]
    assert "xfename.py" in (tmp_path / "report.sarif").read_text()  # a percent-encoded URI


# -- item 8: no orphans, no hang on a FIFO, no stale temp files ---------------------------------

def children_of(pid: int) -> set[int]:
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(d))
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the workers")
def test_workers_exit_when_the_parent_is_killed(tmp_path):
    import signal
    import sys
    import time

    from conftest import REPO

    body = "import torch\n" + "".join(f"x{i} = torch.zeros({i}).cuda()\n" for i in range(3000))
    for i in range(300):
        (tmp_path / f"m{i}.py").write_text(body)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    parent = subprocess.Popen([sys.executable, "-m", "trnready", "scan", "--no-config", "--no-cache", "-j", "2",
                               "--format", "json", str(tmp_path)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        workers: set = set()
        deadline = time.monotonic() + 120
        while len(workers) < 2 and parent.poll() is None and time.monotonic() < deadline:
            workers |= children_of(parent.pid)
            time.sleep(0.05)
        assert len(workers) >= 2 and parent.poll() is None, "the scan ended before its workers were seen"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 60
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers)
    finally:
        if parent.poll() is None:
            parent.kill()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)


def test_a_fifo_on_the_command_line_is_refused_with_one_line(tmp_path):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    one_line_error(run_cli("scan", "--no-config", fifo), "pipe.py", "not a regular file or directory", "FIFO")
    one_line_error(run_cli("fix", "--no-config", fifo), "pipe.py", "FIFO")
    # inside a scanned directory a FIFO is passed over, as before
    (tmp_path / "a.py").write_text("import flash_attn\n")
    assert run_cli("scan", "--no-config", tmp_path).returncode == 1


def test_stale_temp_files_of_a_report_are_removed_on_the_next_write(tmp_path):
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / "a.py").write_text("import flash_attn\n")
    out = tmp_path / "out"
    out.mkdir()
    stale = out / f".report.json.{dead.pid}.k3j4h5.tmp"
    stale.write_bytes(b"x" * 1000)
    live = out / f".report.json.{os.getpid()}.a1b2c3.tmp"  # a writer still running: left alone
    live.write_bytes(b"x")
    other = out / f".other.json.{dead.pid}.zzz.tmp"  # another target's temp: left alone
    other.write_bytes(b"x")
    proc = run_cli("scan", "--no-config", "--format", "json", "-o", out / "report.json", tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(["report.json", live.name, other.name])


# -- item 10: no terminal spoofing; limits and write failures are one line ---------------------

def test_control_characters_in_file_names_are_escaped_in_text_and_github(tmp_path):
    (tmp_path / "a\nVerdict: ready\n.py").write_text("import flash_attn\n")
    (tmp_path / "b\r::notice title=x::hi\t.py").write_text("import flash_attn\n")
    text = run_cli("scan", "--no-config", "--no-cache", tmp_path)
    assert text.returncode == 1
    assert "a\\nVerdict: ready\\n.py:1:1 TRN281" in text.stdout
    assert "b\\x0d::notice title=x::hi\\t.py:1:1 TRN281" in text.stdout
    assert [ln for ln in text.stdout.splitlines() if ln.startswith("Verdict")] == ["Verdict: not ready: 2 blockers"]
    gh = run_cli("scan", "--no-config", "--no-cache", "--format", "github", tmp_path)
    assert gh.returncode == 1
    assert [ln for ln in gh.stdout.splitlines() if ln.startswith("Verdict")] == ["Verdict: not ready: 2 blockers"]
    assert not any(ln.startswith("::notice") for ln in gh.stdout.splitlines())
    assert "a\\nVerdict%3A ready\\n.py" in gh.stdout and "\t" not in gh.stdout and "\r" not in gh.stdout


def test_rules_and_explain_escape_control_sequences_from_the_catalogue(tmp_path):
    rules = line_rule("aaa").replace('title = "a line the team forbids"', 'title = "x\\u001b[2J\\u001b]0;pwned\\u0007 y"')
    rules = rules.replace('why = "Team rule."', 'why = "fine\\nVerdict: ready\\u001b[31m"')
    (tmp_path / "rules.toml").write_text(rules)
    (tmp_path / "trnready.toml").write_text('extend-catalogue = ["rules.toml"]\n')
    for args in (["rules"], ["explain", "ACME201"]):
        proc = run_cli(*args, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
        assert "x\\x1b[2J\\x1b]0;pwned\\x07 y" in proc.stdout


def test_a_huge_max_file_size_is_a_config_error_naming_the_key(tmp_path):
    (tmp_path / "a.py").write_text("import torch\n")
    cfg = tmp_path / "trnready.toml"
    cfg.write_text("max-file-size = 100000000000000000000\n")
    one_line_error(run_cli("scan", tmp_path), f"{cfg}:1:", "key 'max-file-size'", "at most")


def test_a_full_disk_when_writing_a_report_is_one_line(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(small)],
                      capture_output=True).returncode != 0:
        pytest.skip("needs a small tmpfs (root)")
    try:
        for i in range(50):
            (tmp_path / f"m{i}.py").write_text("import flash_attn\nimport torch\nx = torch.zeros(1).cuda()\n")
        proc = run_cli("scan", "--no-config", "--no-cache", "--format", "html", "-o", small / "r.html", tmp_path)
        one_line_error(proc, f"cannot write {small / 'r.html'}: the disk is full")
        assert list(small.iterdir()) == []  # no temp file left behind
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


# -- item 5: readers stay linear (timings: bench/pathological.py) -----------------------------

def test_indented_yaml_line_matches_with_the_right_column_and_a_space_run_is_harmless(tmp_path):
    (tmp_path / "ci.yaml").write_text("jobs:\n  run:\n" + " " * 40_000 + "x: 1\n"
                                      + "    image: nvidia/cuda:12.1.0-runtime-ubuntu22.04\n")
    data = json.loads(run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path).stdout)
    assert [(f["rule"], f["line"], f["column"]) for f in data["findings"]] == [("TRN603", 4, 12)]
    assert [d["kind"] for d in data["diagnostics"]] == ["long-line"]
    assert "line 3 longer than 10,000 characters" in data["diagnostics"][0]["message"]
    assert data["summary"]["files_scanned"] == 1


def test_a_minified_json_line_in_yaml_and_a_huge_env_line_are_read_up_to_the_cap(tmp_path):
    import json as _json
    blob = _json.dumps({"k": [{"a": i, "b": "x" * 20} for i in range(40000)]}, separators=(",", ":"))
    (tmp_path / "config.yaml").write_text("data: " + blob[:1_000_000] + "\n" + "run: pip install flash-attn\n")
    (tmp_path / "Dockerfile").write_text("FROM ubuntu:22.04\nENV X=" + ",".join(["0"] * 200_000) + "\n"
                                         + "RUN pip install flash-attn\n")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert sorted((f["path"], f["line"]) for f in data["findings"]) == [("Dockerfile", 3), ("config.yaml", 2)]
    assert sorted((d["path"], d["kind"]) for d in data["diagnostics"]) == [("Dockerfile", "long-line"),
                                                                           ("config.yaml", "long-line")]


@pytest.mark.parametrize("name,make", [
    ("pyproject.toml", lambda deps: '[project]\nname = "x"\nversion = "1"\ndependencies = [\n'
                                    + "".join(f'  "{d}",\n' for d in deps) + "]\n"),
    ("Pipfile", lambda deps: "[packages]\n" + "".join(f'{d} = "*"\n' for d in deps)),
    ("requirements.txt", lambda deps: "".join(f"{d}\n" for d in deps)),
])
def test_manifests_with_many_dependencies_point_at_the_right_line(tmp_path, name, make):
    deps = [f"pkg{i}" for i in range(20_000)] + ["flash-attn"] + [f"zz{i}" for i in range(100)]
    (tmp_path / name).write_text(make(deps))
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path)
    assert proc.returncode == 1, proc.stderr
    (f,) = json.loads(proc.stdout)["findings"]
    first = {"pyproject.toml": 5, "Pipfile": 2, "requirements.txt": 1}[name]
    assert (f["rule"], f["line"]) == ("TRN501", first + 20_000)


def test_a_shell_line_with_thousands_of_installs_is_one_finding(tmp_path):
    (tmp_path / "run.sh").write_text("pip install flash-attn " * 400 + "\n")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert [(f["rule"], f["line"]) for f in json.loads(proc.stdout)["findings"]] == [("TRN501", 1)]


# -- item 9: -r includes stay inside the scanned tree and under the size cap ----------------------

def test_includes_outside_the_scanned_tree_are_refused_with_a_diagnostic(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "outside.pip").write_text("flash-attn\n")  # would make the scan exit 1 if read
    (repo / "requirements.txt").write_text("-r ../outside.pip\n-r /etc/passwd\n-c /no/such/file.txt\nnumpy\n")
    (repo / "link.pip").symlink_to(tmp_path / "outside.pip")
    (repo / "dev-requirements.txt").write_text("-r link.pip\n")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", repo)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["findings"] == []
    diags = {d["path"]: d for d in data["diagnostics"]}
    assert set(diags) == {"requirements.txt", "dev-requirements.txt"}
    msg = diags["requirements.txt"]["message"]
    assert diags["requirements.txt"]["kind"] == "refused-include"
    # the same words whether the target exists or not: nothing is revealed about files outside
    for target in ("../outside.pip", "/etc/passwd", "/no/such/file.txt"):
        assert f"{target}: outside the scanned directory; not read" in msg
    assert "link.pip: outside the scanned directory" in diags["dev-requirements.txt"]["message"]


def test_an_include_larger_than_max_file_size_is_not_read(tmp_path):
    (tmp_path / "requirements.txt").write_text("-r deps/big.pip\n-r deps/small.pip\n")
    (tmp_path / "deps").mkdir()
    (tmp_path / "deps" / "big.pip").write_text("flash-attn\n" + "numpy\n" * 2000)
    (tmp_path / "deps" / "small.pip").write_text("requests\n")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", "--max-file-size", "5000", tmp_path)
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["findings"] == [], proc.stderr
    (d,) = data["diagnostics"]
    assert d["kind"] == "refused-include"
    assert "requirements.txt:1: -r deps/big.pip: not read: larger than the 5,000-byte limit" in d["message"]
    # with room for it, the include is read and gates
    assert run_cli("scan", "--no-config", "--no-cache", tmp_path).returncode == 1


def test_a_cuda_kernel_with_a_very_long_name_is_found_with_a_bounded_message(tmp_path):
    (tmp_path / "k.cu").write_text("#include <cuda.h>\n__global__ void " + "k" * 9000 + "(float *x) { x[0] = 1; }\n")
    data = json.loads(run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path).stdout)
    (f,) = data["findings"]
    assert (f["rule"], f["line"], [o["line"] for o in f["occurrences"]]) == ("TRN601", 1, [2])
    assert f["message"].startswith("CUDA source file: 1 __global__ kernel") and len(f["message"]) == 500


def test_a_fifo_named_as_the_cython_source_of_a_cuda_build_does_not_block_the_scan(tmp_path):
    # the report step reading a build's .pyx wrapper (postprocess_cython.py) opens it with the scanner's own reader
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup, Extension\n"
        "setup(ext_modules=[Extension('nms.gpu_nms', ['nms/nms_kernel.cu', 'nms/gpu_nms.pyx'])])\n")
    (tmp_path / "nms").mkdir()
    os.mkfifo(tmp_path / "nms" / "gpu_nms.pyx")
    proc = run_cli("scan", "--no-config", "--no-cache", "--format", "json", tmp_path)  # the CLI timeout: 600 s
    builds = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN302"]
    assert [(f["path"], f["line"], f.get("elsewhere")) for f in builds] == [("setup.py", 2, None)]
