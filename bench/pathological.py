"""Pathological inputs from issue 18: builds each one in a temporary directory, scans it with the
real command line in a fresh process and prints the wall time (and exit code) per case.

    python bench/pathological.py                 # every case, this checkout
    python bench/pathological.py --timeout 60    # give up on a case after 60 s
    python bench/pathological.py --code DIR      # time another checkout of trnready (e.g. an older commit)
    python bench/pathological.py yaml-spaces-40k cuda-long-name   # some cases only

A case "passes" when it finishes within the timeout; the figures are for reading, not asserting.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _w(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _deps(n: int) -> list[str]:
    return [f"pkg{i}" for i in range(n)]


def yaml_spaces(d: Path, n: int):
    _w(d / "ci.yaml", "jobs:\n  run:\n" + " " * n + "x: 1\n" + "    - pip install torch\n")


def yaml_json(d: Path):
    import json
    blob = json.dumps({"k": [{"a": i, "b": "x" * 20, "c": [1, 2, 3]} for i in range(20000)]}, separators=(",", ":"))
    _w(d / "config.yaml", "data: " + blob[:1_000_000] + "\n")


def cuda_long_name(d: Path):
    _w(d / "k.cu", "__global__ void " + "k" * 40_000 + "(float *x) { x[0] = 1; }\n")


def docker_env(d: Path):
    _w(d / "Dockerfile", "FROM ubuntu:22.04\nENV X=" + ",".join(["0"] * 200_000) + "\n")


def pyproject_deps(d: Path, n: int):
    deps = ",\n".join(f'  "{x}>=1.0"' for x in _deps(n))
    _w(d / "pyproject.toml", f'[project]\nname = "x"\nversion = "1"\ndependencies = [\n{deps}\n]\n')


def pipfile_deps(d: Path, n: int):
    _w(d / "Pipfile", "[packages]\n" + "".join(f'{x} = "*"\n' for x in _deps(n)))


def requirements_deps(d: Path, n: int):
    _w(d / "requirements.txt", "".join(f"{x}>=1.0\n" for x in _deps(n)))


def findings_one_line(d: Path):
    _w(d / "a.py", "import torch\nx = torch.zeros(1)\n" + "x.cuda(); " * 12_000 + "\n")


def shell_one_line(d: Path):
    _w(d / "run.sh", "pip install flash-attn " * 5_000 + "\n")


def user_regex(d: Path, n: int):
    _w(d / "rules.toml", '''[[rule]]
id = "ACME201"
name = "acme-line"
category = "environment"
severity = "blocker"
title = "a line the team forbids"
why = "Team rule."
fix = "Remove it."
source = [{ title = "Team wiki", url = "https://example.com/wiki" }]
docs = "https://example.com/acme"

[[rule.match]]
line = ['(a+)+$']
files = ["shell"]

[rule.examples]
hit = [{ file = "run.sh", code = "aaaa" }]
clean = [{ file = "run.sh", code = "echo ok" }]
''')
    _w(d / "trnready.toml", 'extend-catalogue = ["rules.toml"]\n')
    _w(d / "run.sh", "a" * n + "!\n")


def include_big(d: Path):
    _w(d / "requirements.txt", "-r big.pip\n")
    with open(d / "big.pip", "wb") as fh:
        line = b"numpy>=1.0\n"
        fh.write(line * (200 * 1024 * 1024 // len(line)))


CASES = {
    "yaml-spaces-40k": lambda d: yaml_spaces(d, 40_000),
    "yaml-spaces-100k": lambda d: yaml_spaces(d, 100_000),
    "yaml-minified-json-1MB": yaml_json,
    "cuda-long-name-40k": cuda_long_name,
    "dockerfile-env-200k-values": docker_env,
    "pyproject-8000-deps": lambda d: pyproject_deps(d, 8_000),
    "pyproject-100000-deps": lambda d: pyproject_deps(d, 100_000),
    "pipfile-8000-deps": lambda d: pipfile_deps(d, 8_000),
    "pipfile-100000-deps": lambda d: pipfile_deps(d, 100_000),
    "requirements-100000-deps": lambda d: requirements_deps(d, 100_000),
    "python-12000-findings-one-line": findings_one_line,
    "shell-5000-installs-one-line": shell_one_line,
    "user-regex-(a+)+$-31": lambda d: user_regex(d, 31),
    "user-regex-(a+)+$-9k": lambda d: user_regex(d, 9_000),
    "requirements-include-200MB": include_big,
}


def run_case(name: str, code: Path, timeout: float) -> str:
    with tempfile.TemporaryDirectory(prefix="trnready-patho-") as tmp:
        d = Path(tmp) / "repo"
        d.mkdir()
        CASES[name](d)
        env = dict(os.environ, PYTHONPATH=str(code), TRNREADY_CACHE_DIR=str(Path(tmp) / "cache"))
        out = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "trnready", "scan", str(d), "--no-cache", "-j", "1", "--format", "json",
               "-o", str(out)]
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f">{timeout:.0f} s (killed)"
        took = time.perf_counter() - t0
        size = out.stat().st_size if out.exists() else 0
        err = proc.stderr.strip().splitlines()[-1][:80] if proc.returncode == 2 and proc.stderr.strip() else ""
        return f"{took:8.2f} s  exit {proc.returncode}  report {size:,} B" + (f"  ({err})" if err else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--code", type=Path, default=REPO, help="the trnready checkout to time (default: this one)")
    args = ap.parse_args()
    names = args.cases or list(CASES)
    for n in names:
        if n not in CASES:
            sys.exit(f"unknown case {n!r}; cases: {', '.join(CASES)}")
    width = max(map(len, names))
    for n in names:
        print(f"{n:<{width}}  {run_case(n, args.code.resolve(), args.timeout)}", flush=True)


if __name__ == "__main__":
    main()
