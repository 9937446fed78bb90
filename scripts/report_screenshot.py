"""Regenerate docs/report.png: the demo project's HTML report in headless chromium.

    python scripts/report_screenshot.py [OUT.png]

Scans a copy of examples/demo (so the header shows a neutral path), ticks a few checklist items to
show the progress bar, and captures the top of the page.
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.chromium import launch  # noqa: E402


def main(argv):
    out = Path(argv[0]) if argv else REPO / "docs" / "report.png"
    tmp = Path(tempfile.gettempdir()) / "trnready-screenshot"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        demo = tmp / "examples" / "demo"
        shutil.copytree(REPO / "examples" / "demo", demo)
        html = tmp / "report.html"
        subprocess.run([sys.executable, "-m", "trnready", "scan", str(demo), "--html", str(html), "--exit-zero"],
                       check=True, cwd=REPO, stdout=subprocess.DEVNULL)
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1100, "height": 1000})
            page.goto(html.as_uri())
            page.wait_for_selector("html[data-ready]", state="attached")
            for rule in ("TRN171", "TRN281", "TRN251"):
                page.locator(f"#{rule} input.icb").check()
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": 0, "width": 1100, "height": 1320})
            browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{out}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
