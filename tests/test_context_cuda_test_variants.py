"""cuda-test-variants: a CUDA check that only adds CUDA parameter sets to a test class runs the CPU ones on Neuron."""
from conftest import scan_findings

SRC = '''import unittest

import torch
from parameterized import parameterized_class


@parameterized_class(("device",), [("cpu",), ("cuda",)] if torch.cuda.is_available() else [("cpu",)])
class TestGrad(unittest.TestCase):
    device: str

    def test_sum(self):
        self.assertEqual(torch.ones(3).sum().item(), 3)


use_gpu = torch.cuda.is_available()


@parameterized_class(("use_gpu",), [(torch.cuda.is_available(),)])
class TestFlag(unittest.TestCase):
    def test_one(self):
        pass


@parameterized_class(("device",), "cuda" if torch.cuda.is_available() else "cpu")
class TestPick(unittest.TestCase):
    def test_one(self):
        pass
'''


def test_a_cuda_check_choosing_a_test_class_parameter_sets_is_guarded(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_variants.py").write_text(SRC)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN243"]
    # 7: the check only adds ("cuda",); 15 is a module flag; 18 is a parameter value itself; 24 picks one string
    # 24: a pick with a CPU arm in a test is no item either (test-cpu-fallback, policy s22)
    assert found == [(7, True), (15, False), (18, False), (24, True)]


def test_outside_tests_the_same_decorator_stays(tmp_path):
    (tmp_path / "variants.py").write_text(SRC)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN243" and f[1] == 7]
    assert found == [(7, False)]
