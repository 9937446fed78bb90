"""env-test-fixture: a test that sets up or checks CUDA_VISIBLE_DEVICES for the code under test is no port item;
a test that sets it for what it runs on the machine is."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MASK = "CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER: `CUDA_VISIBLE_DEVICES`"


def test_fixtures_and_checks_are_guarded_environments_for_what_runs_are_not():
    assert scan_findings(CONTEXT_FIXTURES / "env_test_fixture", "--show-guarded") == [
        # the code under test reads the variable: reported there (line 10 hides every GPU from a child, a CPU run:
        # hides-every-gpu drops it)
        ("proj/proj/gpus.py", 5, 27, "TRN245", MASK, False),
        ("proj/tests/test_visibility.py", 10, 24, "TRN245", MASK, True),  # monkeypatch.setenv
        ("proj/tests/test_visibility.py", 15, 24, "TRN245", MASK, True),  # monkeypatch.delenv
        ("proj/tests/test_visibility.py", 22, 16, "TRN245", MASK, True),  # asserted entry of a dict
        ("proj/tests/test_visibility.py", 26, 29, "TRN245", MASK, True),  # input dict of the project's function
        ("proj/tests/test_visibility.py", 31, 30, "TRN245", MASK, True),  # @patch.dict(os.environ, {...})
        ("proj/tests/test_visibility.py", 36, 23, "TRN245", MASK, True),  # self.assertIn(...)
        # os.environ[...] = ..., env={...} of a subprocess, a dict handed on as env=, os.environ.update({...})
        ("proj/tests/test_visibility.py", 40, 16, "TRN245", MASK, False),
        # proj/tests/test_visibility.py:41:49 TRN245 folds into line 40 (a run of neighbouring statements)
        ("proj/tests/test_visibility.py", 45, 12, "TRN245", MASK, False),
        # proj/tests/test_visibility.py:47:24 TRN245 folds into line 45 (a run of neighbouring statements)
    ]


def test_registered_as_a_guard_of_environment_matches():
    p = context.get("env-test-fixture")
    assert p.effect == "guard" and p.kinds == ("env",)
