"""help-text: an environment variable named in an option's help text reads and sets nothing."""
from conftest import CONTEXT_FIXTURES, scan_findings

VISIBLE = "CUDA_VISIBLE_DEVICES / CUDA_DEVICE_ORDER: `CUDA_VISIBLE_DEVICES`"


def test_help_text_is_no_finding_and_the_setting_is():
    # line 5 is `help='CUDA_VISIBLE_DEVICES'`: only line 7, where the program sets the variable, is reported
    assert scan_findings(CONTEXT_FIXTURES / "help_text", "--show-guarded") == [
        ("launch.py", 7, 12, "TRN245", VISIBLE, False)]


def test_a_value_that_is_not_help_text_stays(tmp_path):
    (tmp_path / "run.py").write_text('import os\n\nos.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")\n'
                                     'print(dict(help="CUDA_VISIBLE_DEVICES"))\n')
    assert scan_findings(tmp_path, "--show-guarded") == [("run.py", 3, 23, "TRN245", VISIBLE, False)]
