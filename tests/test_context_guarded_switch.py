"""guarded-switch: a test helper's `cuda=False` switch turned on only from guarded code."""
import json

from conftest import run_cli
from trnready import context


def test_registered_as_a_guard():
    p = context.get("guarded-switch")
    assert p.effect == "guard"


def _guarded(tmp_path, name, code):
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "tests" / name).write_text(code)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]


FORWARDED = '''import torch


def make_data(cuda=False):
    x = torch.rand(4)
    if cuda:
        x = x.cuda()
    return x


def check(cuda=False):
    return make_data(cuda=cuda).sum()


def test_sum():
    assert check() is not None


def test_sum_cuda():
    if torch.cuda.is_available():
        assert check(True) is not None
'''


def test_a_switch_handed_on_by_a_switched_function_is_off_too(tmp_path):
    # check(True) runs only under the check; make_data(cuda=cuda) hands on check's switch, off on Neuron
    assert (7, "TRN241", "guarded-switch") in _guarded(tmp_path, "test_forwarded.py", FORWARDED)


OVERRIDE = '''import torch

from base_cases import BaseCase


class TestModel(BaseCase):
    def _eval_iter(self, model, cuda=False):
        if cuda:
            model = model.cuda()
        return model(torch.ones(2))

    def test_positional(self, cuda=False):
        if cuda:
            torch.cuda.synchronize()

    def test_positional_gpu(self):
        self.test_positional(True)
'''


def test_an_override_called_only_from_elsewhere_and_a_positional_switch_stay(tmp_path):
    # _eval_iter has no call here (a base class in another module calls it, with values unseen); the test's
    # positional True runs on every machine
    found = _guarded(tmp_path, "test_override.py", OVERRIDE)
    assert (9, "TRN241", "") in found
    assert [g for line, _rule, g in found if line == 14] == [""]


HANDED_ON = '''import functools

import torch


def _run(cuda=False):
    if cuda:
        return torch.ones(2).cuda()
    return torch.ones(2)


def test_partial():
    assert functools.partial(_run, cuda=True)() is not None
'''


def test_a_function_handed_on_by_name_is_left_alone(tmp_path):
    assert (8, "TRN241", "") in _guarded(tmp_path, "test_handed_on.py", HANDED_ON)
