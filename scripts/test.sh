#!/usr/bin/env bash
# Sets up everything the test suite needs on a bare Debian machine with Python 3.11+, then runs it.
# - Debian's chromium for the HTML report's browser tests (never a downloaded browser)
# - a virtualenv in .venv with trnready and its test extras
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian chromium for the browser tests..." >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "warning: could not install chromium; browser tests will fail" >&2
  fi
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[test]"
# Byte-compile the package once: the tests start the CLI thousands of times, and where PYTHONDONTWRITEBYTECODE is set
# every start would compile each module from source again (about a third of a small scan's time).
.venv/bin/python -m compileall -q trnready >/dev/null
exec .venv/bin/python -m pytest "$@"
