"""cpu-unit-test: a test that never names a device runs on the CPU, on a Neuron machine too."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

UNIQUE = "Operation whose output shape depends on the data: `unique`"
NONZERO = "Operation whose output shape depends on the data: `nonzero`"
TORCH_UNIQUE = "Operation whose output shape depends on the data: `torch.unique`"
F64 = "float64 or complex128 dtype: `torch.float64`"
BNB = "Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): `load_in_4bit`"


def test_cpu_tests_are_guarded_device_tests_are_reported():
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "cpu_unit_test", "--show-guarded")
            if not f[0].startswith(("proj/examples/", "proj/notebooks/"))] == [
        ("proj/model.py", 5, 12, "TRN104", TORCH_UNIQUE, False),  # source scope: never guarded by it
        # nothing in the file names a device: every operation finding is guarded, the import too
        # an option stored in a config dict of a CPU test is data; the same option for a model on the device stays
        ("proj/tests/test_config_checks.py", 10, 48, "TRN286", BNB, True),
        ("proj/tests/test_config_checks.py", 15, 48, "TRN286", BNB, False),
        ("proj/tests/test_config_checks.py", 16, 13, "TRN702", "Hugging Face model loading without "
         "HF_DEACTIVATE_ASYNC_LOAD=1: `transformers.AutoModelForCausalLM.from_pretrained` (1 use in 1 file, first "
         "here); HF_DEACTIVATE_ASYNC_LOAD appears in no scanned file", False),
        ("proj/tests/test_config_checks.py", 16, 65, "TRN242", '"cuda" device string: `cuda`', False),
        ("proj/tests/test_cpu_named.py", 6, 33, "TRN121", F64, True),  # device=cpu_device: a name saying CPU
        ("proj/tests/test_cpu_only.py", 2, 1, "TRN201", "TorchAO (quantization and float8 training): "
         "`torchao.quantization`", True),
        ("proj/tests/test_cpu_only.py", 7, 9, "TRN141",
         "Sparse tensor construction or sparse operation: `torch.sparse_coo_tensor`", True),
        ("proj/tests/test_cpu_only.py", 12, 32, "TRN121", F64, True),
        ("proj/tests/test_cpu_only.py", 17, 32, "TRN121", F64, True),  # torch.device("cpu") names the host
        # the module hides every GPU at its top: all of it runs on the CPU, whatever the category (the setting
        # itself, line 5, is no finding: hides-every-gpu)
        ("proj/tests/test_hidden_gpus.py", 9, 5, "TRN261",
         "cuDNN / CUDA backend flag: `torch.backends.cudnn.deterministic`", True),
        ("proj/tests/test_hidden_gpus.py", 14, 31, "TRN242", '"cuda" device string: `cuda`', True),
        ("proj/tests/test_hidden_gpus.py", 15, 12, "TRN104", UNIQUE, True),
        # a CUDA device string is never guarded by it
        ("proj/tests/test_mixed.py", 8, 31, "TRN242", '"cuda" device string: `cuda`', False),
        ("proj/tests/test_mixed.py", 13, 12, "TRN104", UNIQUE, True),  # a test without a device
        # parametrised `device`, but an operation in a test beside project code is guarded (policy s23)
        ("proj/tests/test_mixed.py", 19, 12, "TRN104", UNIQUE, True),
        ("proj/tests/test_mixed.py", 24, 12, "TRN104", UNIQUE, True),  # moved to cuda by a helper; guarded (policy s23)
        # not a test: a device test of the file may call it
        ("proj/tests/test_mixed.py", 28, 33, "TRN121", F64, True),  # float64 in a test: reference (policy s22)
        ("proj/tests/test_mixed.py", 33, 36, "TRN242", '"cuda" device string: `cuda`', False),
        ("proj/tests/test_mixed.py", 37, 16, "TRN104", NONZERO, True),  # setUp names the device
        ("proj/tests/test_mixed.py", 42, 16, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", False),
        # an uncalled helper method with .cuda() does not make the test a device test
        ("proj/tests/test_mixed.py", 46, 16, "TRN104", NONZERO, True),
    ]


def test_programs_that_name_no_device_are_guarded_libraries_and_device_programs_are_not():
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "cpu_unit_test", "--show-guarded")
            if f[0].startswith(("proj/examples/", "proj/notebooks/")) and f[3] != "TRN702"] == [
        # a script (a __main__ block) that names no device; `xlabel` is no device word
        ("proj/examples/cpu_tutorial.py", 6, 12, "TRN104", UNIQUE, True),
        ("proj/examples/cpu_tutorial.py", 6, 35, "TRN121", F64, True),
        # a script that picks a device: its operations may run there
        ("proj/examples/gpu_script.py", 3, 10, "TRN242", '"cuda" device string: `cuda`', False),
        ("proj/examples/gpu_script.py", 4, 26, "TRN121", F64, False),
        ("proj/examples/gpu_script.py", 5, 7, "TRN104", UNIQUE, False),
        # definitions only: a library of the examples, whose callers place its tensors
        ("proj/examples/model_lib.py", 5, 35, "TRN121", F64, False),
        # hands its model to a Trainer, which picks the accelerator without the script naming it
        ("proj/examples/trainer_script.py", 6, 17, "TRN121", F64, False),
        # a notebook is a program wherever it lies
        ("proj/notebooks/tutorial.ipynb", 2, 1, "TRN123", "Default dtype set to float64: `torch.set_default_dtype`",
         True),
        ("proj/notebooks/tutorial.ipynb", 2, 5, "TRN104", NONZERO, True),
    ]


def test_source_files_are_never_guarded_by_it():
    found = scan_findings(CONTEXT_FIXTURES / "cpu_unit_test" / "proj" / "model.py", "--show-guarded")
    assert found == [("model.py", 5, 12, "TRN104", TORCH_UNIQUE, False)]


def test_registered_as_a_guard():
    assert context.get("cpu-unit-test").effect == "guard"


DTYPE_HELPER = '''import unittest

import torch


class TestScalars(unittest.TestCase):
    def _check(self, fn, dtype=torch.float32):
        expected = torch.tensor([1.0, 2.0]).to(dtype)
        self.assertTrue(torch.equal(fn(), expected))

    def test_double(self):
        self._check(lambda: torch.tensor([1.0, 2.0], dtype=torch.float64), dtype=torch.float64)

    def test_placed(self):
        self._check(lambda: torch.ones(2).to(self.place), dtype=torch.float64)
'''


def test_a_helper_casting_to_a_dtype_parameter_names_no_device(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_scalars.py").write_text(DTYPE_HELPER)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN121" and f[1] >= 12]
    # `.to(dtype)` in the helper is a cast, not a placement; test_placed names a device place of its own
    assert found == [(12, True), (15, False)]


SWITCHED = '''import unittest

import torch


class TestStats(unittest.TestCase):
    def setUp(self):
        if torch.cuda.is_available():
            torch.cuda.manual_seed_all(0)

    def test_var(self, cuda=False):
        device = torch.device("cuda") if cuda else torch.device("cpu")
        for dtype in (torch.float, torch.double):
            assert torch.ones(3, device=device, dtype=dtype).var() == 0

    def test_var_cuda(self):
        if torch.cuda.is_available():
            self.test_var(cuda=True)

    def test_rank(self):
        x = torch.ones(2, 2)
        rank = x.dim()
        assert torch.zeros(rank, dtype=torch.float64).sum() == 0

    def test_moved(self, cuda=False):
        device = torch.device("cuda") if cuda else torch.device("cpu")
        assert torch.ones(3, device=device, dtype=torch.float64).sum() == 3

    def test_moved_gpu(self):
        self.test_moved(cuda=True)
'''


def test_a_device_switch_off_on_neuron_and_a_tensor_rank_name_no_device(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_stats.py").write_text(SWITCHED)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN121"]
    # test_var's device is the host on Neuron (cuda=True only under the check; the CUDA seed of setUp never runs);
    # `rank` holds a tensor's rank; test_moved is run with cuda=True on every machine
    assert found == [(13, True), (23, True), (27, False)]


CHECKED_MOVE = '''import unittest

import torch


class TestChecked(unittest.TestCase):
    def test_moved_where_cuda_is(self):
        x = torch.ones(3, dtype=torch.float64)
        if torch.cuda.is_available():
            x = x.cuda()
        assert x.sum() == 3
'''


def test_a_tensor_moved_under_a_cuda_check_names_a_device(tmp_path):
    # the port turns the check into an accelerator check: the test then runs on the device
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_checked.py").write_text(CHECKED_MOVE)
    assert [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN121"] == [(8, False)]


WRAPPED = '''import unittest

import torch
from torch import nn


class TestCheckpointer(unittest.TestCase):
    def create_model(self):
        return nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))

    def test_prefix(self):
        for model in [self.create_model(), nn.DataParallel(self.create_model())]:
            self.assertTrue(len(model.state_dict()) > 0)

    def test_on_device(self):
        model = nn.DataParallel(self.create_model()).cuda()
        self.assertTrue(model is not None)
'''


def test_data_parallel_over_a_module_of_a_test_that_names_no_device_is_guarded(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_checkpoint.py").write_text(WRAPPED)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN352"]
    # nn.DataParallel with no GPU visible only runs the module: a CPU test of the `module.` prefix ports as is; the
    # test that moves the wrapper to the GPU names a device
    assert found == [(12, "TRN352", True), (16, "TRN352", False)]


QUIET = '''import gc

import pytest
import torch


@pytest.fixture
def dataset():
    data = torch.arange(10)
    yield data
    del data
    torch.cuda.empty_cache()


def test_sum(dataset):
    assert dataset.sum() == 45
    torch.cuda.empty_cache()


def test_on_gpu(dataset):
    x = dataset.to("cuda")
    torch.cuda.empty_cache()


@pytest.fixture
def run_model(trainer):
    def _run(model, data):
        try:
            trainer.fit(model=model, datamodule=data)
        finally:
            del model
            gc.collect()
            torch.cuda.empty_cache()
    return _run


def helper():
    torch.cuda.empty_cache()
'''


def test_a_quiet_cuda_call_in_a_cpu_test_or_fixture_is_guarded(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_quiet.py").write_text(QUIET)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN243"]
    # 12 (a fixture freeing host data) and 17 (a CPU test) do nothing without CUDA; test_on_gpu names a device
    # (22), the fixture's helper hands the model to trainer.fit (33), and a plain helper is judged by the whole file
    assert found == [(12, True), (17, True), (22, False), (33, False), (38, False)]


MAIN_ENV = '''import os
import unittest

import torch


class TestNorm(unittest.TestCase):
    def test_norm(self):
        x = torch.randn(4, 3)
        self.assertEqual(torch.nn.functional.normalize(x).shape, (4, 3))


if __name__ == "__main__":
    os.environ['CUDA_VISIBLE_DEVICES'] = '0'
    unittest.main()
'''


def test_cuda_visible_devices_set_by_a_cpu_test_module_is_guarded(tmp_path):
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "test_norm.py").write_text(MAIN_ENV)
    on_gpu = MAIN_ENV.replace("torch.randn(4, 3)", "torch.randn(4, 3).cuda()")
    (tmp_path / "test" / "test_gpu_norm.py").write_text(on_gpu)
    found = sorted((f[0], f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN245")
    # nothing in test_norm.py names a device: the variable restricts GPUs no test uses; test_gpu_norm.py moves a tensor
    assert found == [("test/test_gpu_norm.py", 14, False), ("test/test_norm.py", 14, True)]


def test_cuda_visible_devices_of_a_script_in_a_test_folder_stays(tmp_path):
    # MixFormer's lib/test/vot20/stark_s50.py: no tests of its own, it runs a tracker through another module
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "stark_s50.py").write_text(
        "import os\nfrom lib.run import run_vot_exp\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
        "run_vot_exp('stark_s', 'baseline')\n")
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN245"]
    assert found == [(3, False)]
