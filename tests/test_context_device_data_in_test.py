"""device-data-in-test: a "cuda" string or a 4-bit flag that a unit test feeds to the project's logic as data is no
placement; a test that moves tensors or hands the flag to a model loader stays reported."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

CUDA = '"cuda" device string: `cuda`'
BNB = "Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): `load_in_4bit`"
T = "proj/tests/test_policy.py"


def test_inputs_of_unit_tests_are_guarded_device_work_is_not():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "device_data_in_test", "--show-guarded") if f[3] != "TRN702"]
    assert found == [
        # the value followed into the helper's SimpleNamespace by the link step: judged without the file's context
        (T, 15, 25, "TRN242", CUDA + " (via proj/tests/test_policy.py:15 _target(device='cuda') → "
                                     "proj/tests/test_policy.py:11 types.SimpleNamespace)", False),
        (T, 15, 40, "TRN242", CUDA, True),  # to a helper of the file that builds a record
        (T, 19, 43, "TRN242", CUDA, True),  # SimpleNamespace(device="cuda")
        (T, 25, 56, "TRN242", CUDA, True),  # the project's policy, monkeypatched; torch.bfloat16 is only read
        (T, 29, 36, "TRN242", CUDA, True),  # a config dict the test writes
        (T, 29, 60, "TRN286", BNB, True),
        (T, 36, 55, "TRN286", BNB, True),  # self.subTest(load_in_4bit=True): a label
        # the test makes a tensor on the device
        (T, 41, 30, "TRN242", CUDA, False),
        # (line 42, the next statement, is an occurrence of line 41's finding: one run)
        (T, 47, 68, "TRN286", BNB, False),  # a library loader, even in a test that mocks
        (T, 52, 26, "TRN242", CUDA, False),  # a dict spread into the loader
        (T, 52, 50, "TRN286", BNB, False),
        (T, 57, 37, "TRN242", CUDA, False),  # the project's own function with nothing mocked
        (T, 65, 25, "TRN242", CUDA, False),  # the helper of the file moves a tensor
    ]


def test_registered_as_a_guard():
    p = context.get("device-data-in-test")
    assert p.effect == "guard" and set(p.kinds) == {"device", "keyword"}
