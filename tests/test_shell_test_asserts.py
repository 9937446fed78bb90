"""Shell tests: a CUDA wheel URL given to an assertion command as the expected value is a string, not an install;
the same line outside the tests, and an install inside them, stay reported."""
from conftest import scan_findings

ASSERT = 'assert_eq "CUDA 12.6 -> cu126" "https://download.pytorch.org/whl/cu126" "$(pick_url)"\n'
INSTALL = "pip install torch --index-url https://download.pytorch.org/whl/cu121\n"


def test_expected_urls_of_shell_tests_are_not_installs(tmp_path):
    (tmp_path / "tests" / "sh").mkdir(parents=True)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "tests" / "sh" / "test_urls.sh").write_text("#!/bin/bash\n" + ASSERT + INSTALL)
    (tmp_path / "scripts" / "check.sh").write_text("#!/bin/bash\n" + ASSERT)
    found = [(p, line, rule) for p, line, _, rule, _, _ in scan_findings(tmp_path) if rule == "TRN505"]
    assert found == [("scripts/check.sh", 2, "TRN505"), ("tests/sh/test_urls.sh", 3, "TRN505")]
