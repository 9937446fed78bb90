"""The predicate registry: one module per predicate, each documented and tested; names checked at load."""
import re
from pathlib import Path

import pytest

from conftest import CONTEXT_FIXTURES, REPO, run_cli
from trnready import context
from trnready.catalogue import DEPRECATED_KEYS, CatalogueDeprecation, load_catalogue

MODULES = sorted(p.stem for p in (REPO / "trnready" / "context").glob("*.py")
                 if p.stem not in ("__init__", "base") and not p.stem.startswith("_"))  # _x: helpers of a predicate


def test_one_predicate_per_module_each_documented_tested_and_in_the_docs():
    by_module = {p.test.__module__.rsplit(".", 1)[-1]: p for p in context.REGISTRY.values()}
    assert sorted(by_module) == MODULES and len(context.REGISTRY) == len(MODULES)
    docs = (REPO / "docs" / "predicates.md").read_text(encoding="utf-8")
    for module, p in by_module.items():
        assert p.name == module.replace("_", "-")
        assert len(p.doc) > 80, f"{p.name}: the docstring says what it means and why"
        assert (REPO / "tests" / f"test_context_{module}.py").is_file(), f"{p.name} has no test file"
        assert f"### `{p.name}`" in docs, f"{p.name} is not in docs/predicates.md"


def test_catalogue_names_only_registered_predicates():
    cat = load_catalogue()
    named = {n for r in cat.rules for m in r.matchers for n in m.unless} | set(cat.everywhere)
    assert named and named <= set(context.names())


def _rule(path, match):
    path.write_text(f'''[catalogue]
version = "1"
[[rule]]
id = "TRN999"
name = "x"
category = "environment"
severity = "change"
title = "t"
why = "w"
fix = "f"
source = [{{ title = "PyTorch docs", url = "https://docs.pytorch.org/docs/stable/" }}]
docs = "https://example.com"
[[rule.match]]
{match}
[rule.examples]
hit = ["x"]
clean = ["y"]
''')
    return path


def test_unknown_predicate_is_one_error_line_naming_file_line_and_key(tmp_path):
    cat = _rule(tmp_path / "c.toml", 'reference = ["torch.cuda"]\nunless = ["cuda-checkd"]')
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_checked", "--catalogue", cat, "--no-cache")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"trnready: error: {cat}:15: entry TRN999: key 'match.unless': unknown context predicate 'cuda-checkd' "
        f"(known: {', '.join(context.names())})")


def test_unknown_predicate_in_everywhere(tmp_path):
    cat = tmp_path / "c.toml"
    _rule(cat, 'reference = ["torch.cuda"]')
    cat.write_text(cat.read_text().replace('version = "1"\n', 'version = "1"\n[context]\neverywhere = ["nope"]\n', 1))
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_checked", "--catalogue", cat, "--no-cache")
    assert proc.returncode == 2 and re.search(r"c\.toml:4: key 'context\.everywhere': unknown context predicate 'nope'",
                                              proc.stderr)


@pytest.mark.parametrize("key,value,kind", [("unless-parameter", "true", "keyword"),
                                            ("writes-only", "true", "reference"),
                                            ("unless-guarded", "true", "reference"),
                                            ("unless-cuda-checked", "true", "reference"),
                                            ("unless-value", '["TPU"]', "env")])
def test_deprecated_keys_still_work_with_a_warning(tmp_path, key, value, kind):
    cat = _rule(tmp_path / "c.toml", f'{kind} = ["X_NAME"]\n{key} = {value}')
    with pytest.warns(CatalogueDeprecation, match=f"c.toml:15: entry TRN999: key 'match.{key}'"):
        loaded = load_catalogue(cat)
    assert loaded.rules[0].matchers[0].unless == (DEPRECATED_KEYS[key],)
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_checked", "--catalogue", cat, "--no-cache")
    assert proc.returncode == 0
    assert proc.stderr.strip() == (f"trnready: warning: {cat}:15: entry TRN999: key 'match.{key}': deprecated "
                                   f"matcher key; write unless = [\"{DEPRECATED_KEYS[key]}\"] (docs/predicates.md)")


def test_categories_come_from_the_catalogue(tmp_path):
    cat = _rule(tmp_path / "c.toml", 'env = ["X_NAME"]')
    cat.write_text(cat.read_text().replace('version = "1"\n', 'version = "1"\n[categories]\nmine = []\n', 1))
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_checked", "--catalogue", cat, "--no-cache")
    assert proc.returncode == 2 and "unknown category 'environment'" in proc.stderr
    assert Path(cat).read_text().count("[categories]") == 1
