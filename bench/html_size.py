"""Size and speed of the HTML report for a large synthetic scan.

    python -m bench html [--findings 5000] [--files 250] [--out report.html] [--no-browser]

Builds a Report of N findings spread over the catalogue's rules and F files (realistic code lines and
two lines of context each), renders it, and prints the file size and render time; then opens it in
headless chromium and prints the time until the page is interactive (the report script has run and
set `data-ready`) and how long a text filter takes. Targets: under 5 MB, interactive under 2 s.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

from trnready.catalogue import load_catalogue
from trnready.model import Finding, Report, fingerprint
from trnready.reporters import html as html_reporter

TARGET_BYTES = 5 * 1024 * 1024
TARGET_INTERACTIVE_S = 2.0

_FILLER = [
    "    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:",
    "        h = self.norm(x)",
    "        # project, then attend over the sequence dimension",
    "        q, k, v = self.qkv(h).chunk(3, dim=-1)",
    "        out = self.proj(out).view(batch, seq_len, self.hidden_size)",
    "        return x + self.dropout(out)",
    "    loss = criterion(logits.view(-1, logits.size(-1)), labels.view(-1))",
    "    optimizer.zero_grad(set_to_none=True)",
]


def _hit_line(code: str) -> str:
    lines = [ln for ln in code.splitlines() if ln.strip() and not ln.lstrip().startswith(("import ", "from "))]
    return (lines or code.splitlines() or ["x.cuda()"])[-1].strip()


def synthetic_report(n_findings: int = 5000, n_files: int = 250) -> Report:
    cat = load_catalogue()
    rules = cat.rules
    report = Report(root="/srv/synthetic/project", catalogue_version=cat.version, catalogue_sha256=cat.sha256,
                    tool_version="bench", rules=cat.by_id(), started_at="2026-11-29T00:00:00+00:00",
                    files_scanned=n_files, files_by_kind={"python": n_files})
    per_file = max(1, -(-n_findings // n_files))
    for i in range(n_findings):
        rule = rules[(i * 7) % len(rules)]
        path = f"src/pkg_{(i // per_file) // 25:02d}/module_{i // per_file:04d}.py"
        line = 12 + (i % per_file) * 9
        code = "        " + _hit_line(rule.hits[0].code)
        ctx = tuple((line + d, code if d == 0 else _FILLER[(i + d) % len(_FILLER)]) for d in range(-2, 3))
        report.findings.append(Finding(
            rule=rule.id, category=rule.category, severity=rule.severity, confidence="high", path=path,
            line=line, column=9, end_line=line, end_column=9 + len(code.strip()), snippet=code,
            message=f"{rule.title}: `{rule.name}`", fix=rule.fix, docs=rule.docs, source=rule.source,
            fingerprint=fingerprint(path, rule.id, code, i), title=rule.title, context=ctx))
    report.findings.sort(key=lambda f: f.sort_key())
    return report


def _browser_figures(path: Path) -> dict:
    from playwright.sync_api import sync_playwright

    from bench.chromium import launch

    out = {}
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            t0 = time.perf_counter()
            page.goto(path.as_uri(), wait_until="load")
            page.wait_for_selector("html[data-ready]", state="attached")
            out["wall_s"] = time.perf_counter() - t0
            out["ready_ms"] = page.evaluate("window.trnreadyReady")
            out["load_ms"] = page.evaluate(
                "(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd; })()")
            out["dom_nodes"] = page.evaluate("document.getElementsByTagName('*').length")
            t1 = time.perf_counter()
            page.fill("#f-text", "module_0042")
            # (the report's CSP forbids eval, so wait with a locator rather than wait_for_function)
            page.locator("#f-status", has_text="Showing").wait_for()
            out["filter_ms"] = (time.perf_counter() - t1) * 1000
            out["errors"] = errors
        finally:
            browser.close()
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench html", description=__doc__.splitlines()[0])
    ap.add_argument("--findings", type=int, default=5000)
    ap.add_argument("--files", type=int, default=250)
    ap.add_argument("--out", help="keep the rendered report at this path")
    ap.add_argument("--no-browser", action="store_true", help="skip the headless chromium timing")
    args = ap.parse_args(argv)

    report = synthetic_report(args.findings, args.files)
    html_reporter.render(report, io.StringIO())  # warm up: template compile, lexers
    t0 = time.perf_counter()
    buf = io.StringIO()
    html_reporter.render(report, buf)
    render_s = time.perf_counter() - t0
    data = buf.getvalue().encode("utf-8")
    size = len(data)
    print(f"findings: {len(report.findings)} in {args.files} files, {len(report.rules)} catalogue rules")
    print(f"html size: {size:,} bytes ({size / 1024 / 1024:.2f} MiB; target < 5 MiB: "
          f"{'ok' if size < TARGET_BYTES else 'OVER'})")
    print(f"render time: {render_s * 1000:.0f} ms")

    tmpdir = None
    if args.out:
        path = Path(args.out)
    else:
        tmpdir = tempfile.mkdtemp(prefix="trnready-bench-")
        path = Path(tmpdir) / "report.html"
    path.write_bytes(data)
    rc = 0 if size < TARGET_BYTES else 1
    if not args.no_browser:
        try:
            fig = _browser_figures(path.resolve())
        except Exception as e:  # no chromium or no playwright: the size figures still stand
            print(f"browser timing skipped: {type(e).__name__}: {e}")
        else:
            ready_s = fig["ready_ms"] / 1000
            print(f"time to interactive (navigation start -> report script done): {fig['ready_ms']:.0f} ms "
                  f"(target < 2 s: {'ok' if ready_s < TARGET_INTERACTIVE_S else 'OVER'})")
            print(f"load event end: {fig['load_ms']:.0f} ms; wall clock goto->ready: {fig['wall_s'] * 1000:.0f} ms")
            print(f"DOM elements: {fig['dom_nodes']:,}; text filter over all occurrences: {fig['filter_ms']:.0f} ms")
            if fig["errors"]:
                print(f"console errors: {fig['errors'][:3]}")
                rc = 1
            if ready_s >= TARGET_INTERACTIVE_S:
                rc = 1
    if tmpdir:
        os.unlink(path)
        os.rmdir(tmpdir)
    else:
        print(f"report kept at {path}")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
