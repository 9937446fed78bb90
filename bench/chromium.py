"""Debian's headless chromium driven by Playwright, shared by the HTML benchmark, its tests and the
README screenshot. Never downloads a browser: `playwright install` is not used anywhere."""
from __future__ import annotations

import os

CHROMIUM = os.environ.get("TRNREADY_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def launch(playwright):
    """Launch the system chromium; raises if it or Playwright is missing."""
    if not os.path.exists(CHROMIUM):
        raise FileNotFoundError(f"{CHROMIUM} not found (Debian: apt-get install chromium)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
