"""not-an-iterator: a `.next()` call is Python 2 only on an iterator the code made with `iter()` (crnn.pytorch)."""
import json

from conftest import run_cli
from trnready import context

MESSAGE = "Python 2 module (an iterator's `.next()`, `next(it)` on Python 3): `.next()`"


def test_registered_as_a_drop():
    p = context.get("not-an-iterator")
    assert p is not None and p.effect == "drop" and p.kinds == ("method",)


def test_only_an_iter_bound_receiver_is_reported(tmp_path):
    (tmp_path / "train.py").write_text(
        "import torch\n\n\n"
        "def train(net, loader, pager, it):\n"
        "    train_iter = iter(loader)\n"
        "    batch = train_iter.next()\n"      # an iterator from iter(): Python 2
        "    page = pager.next()\n"            # another object's method
        "    other = it.next()\n"              # a parameter: unknown
        "    again = iter(loader)\n"
        "    again = make(loader)\n"
        "    more = again.next()\n"            # bound twice, once to something else
        "    return net(batch), page, other, more\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    got = [(f["line"], f["column"], f["message"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN324"]
    assert got == [(6, 13, MESSAGE)]


def test_an_iterator_made_on_the_spot_is_reported(tmp_path):
    (tmp_path / "train.py").write_text(
        "import torch\n\n\n"
        "def train(net, sample_loader, batch_loader, pager):\n"
        "    samples, labels = sample_loader.__iter__().next()\n"   # LearningToCompare_FSL
        "    batches = iter(batch_loader).next()\n"
        "    page = pager.page().next()\n"                          # another object's method on a call's result
        "    return net(samples), labels, batches, page\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    got = [(f["line"], [o["line"] for o in f.get("occurrences", ())]) for f in json.loads(proc.stdout)["findings"]
           if f["rule"] == "TRN324"]
    assert got == [(5, [6])]
