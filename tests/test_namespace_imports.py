"""File step namespace_imports: an import of a CUDA-only namespace is a place of the finding resolved through it."""
import json

from conftest import FIXTURES, run_cli

HERE = FIXTURES / "namespace_imports"


def _findings(name, *flags):
    proc = run_cli("scan", HERE / name, "--format", "json", "--no-cache", *flags)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["guarded"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_an_aliased_cudnn_import_stays_out_of_the_flag_it_serves():
    # the flag is dropped in the port and the import left behind harms nothing: recall labels call it a look-alike
    assert _findings("cudnn_alias.py") == [(7, 5, "TRN261", False, [])]


def test_an_aliased_amp_module_import_is_a_place_of_its_decorator():
    assert _findings("amp_module.py") == [(7, 6, "TRN251", False, [(2, 1)])]


def test_a_from_import_already_folded_is_not_added_twice():
    assert _findings("amp_from.py") == [(6, 14, "TRN251", False, [(2, 1)]), (7, 10, "TRN251", False, [(2, 1)])]


def test_an_import_of_a_namespace_that_is_not_cudas_own_stays_out():
    assert _findings("functional_alias.py") == [(6, 12, "TRN191", False, [])]


def test_an_import_nothing_reported_resolves_through_stays_silent():
    assert _findings("unused_import.py") == []


def test_a_guarded_use_carries_the_import_among_the_guarded_findings():
    assert _findings("guarded_use.py") == [(6, 8, "TRN243", False, [])]
    assert _findings("guarded_use.py", "--show-guarded") == [(6, 8, "TRN243", False, []),
                                                             (7, 16, "TRN251", True, [(2, 1)])]
