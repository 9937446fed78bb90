"""import-with-fallback: a Python-2-only module imported where the program goes on without it is no port item."""
import json

from conftest import run_cli
from trnready import context

LEGACY = '''try:
    import cPickle as pickle
except ImportError:
    import pickle

try:
    import urllib2
except ImportError:
    raise ImportError("urllib2 is required")

import StringIO
import urllib


def fetch(url, path):
    urllib.urlretrieve(url, path)
    return pickle, urllib2, StringIO
'''


def test_python2_modules_with_a_fallback_are_not_reported_required_ones_are(tmp_path):
    (tmp_path / "legacy.py").write_text(LEGACY)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    # cPickle with a pickle fallback runs on Python 3; urllib2 whose handler raises, StringIO and urllib.urlretrieve
    # fail there: one Python 2 module, every such line a place
    assert got == [(7, "TRN324", [11, 16])]


def test_registered_as_a_drop_for_imports():
    p = context.get("import-with-fallback")
    assert p.effect == "drop" and p.kinds == ("import",)
