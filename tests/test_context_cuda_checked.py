"""cuda-checked: a rule can ask to be silent inside `if <CUDA check>:` bodies (not used by the built-in rules)."""
import textwrap

from conftest import CONTEXT_FIXTURES, run_cli, scan_findings


def _catalogue(path, unless):
    path.write_text(textwrap.dedent(f'''
        [catalogue]
        version = "1"
        [context]
        everywhere = []
        [[rule]]
        id = "TRN261"
        name = "tf32"
        category = "cuda-backend-flags"
        severity = "change"
        title = "TF32 flag"
        why = "w"
        fix = "f"
        source = [{{ title = "PyTorch docs", url = "https://docs.pytorch.org/docs/stable/" }}]
        docs = "https://example.com"
        [[rule.match]]
        reference = ["torch.backends.cuda.matmul"]
        unless = {unless}
        [rule.examples]
        hit = ["import torch\\ntorch.backends.cuda.matmul.allow_tf32 = True"]
        clean = ["x = 1"]
    '''))
    return path


def test_inside_a_cuda_check_is_silent_when_the_rule_asks(tmp_path):
    fixture = CONTEXT_FIXTURES / "cuda_checked"
    checked = scan_findings(fixture, "--catalogue", _catalogue(tmp_path / "a.toml", '["cuda-checked"]'))
    # line 6 is inside `if torch.cuda.is_available():`; line 8 inside the negated check, line 9 outside
    assert checked == [("amp.py", 8, 9, "TRN261", "TF32 flag: `torch.backends.cuda.matmul`", False),
                       ("amp.py", 9, 5, "TRN261", "TF32 flag: `torch.backends.cuda.matmul`", False)]
    plain = scan_findings(fixture, "--catalogue", _catalogue(tmp_path / "b.toml", "[]"))
    assert [f[1] for f in plain] == [6, 8, 9]


def test_a_predicate_for_another_matcher_kind_is_a_catalogue_error(tmp_path):
    cat = _catalogue(tmp_path / "c.toml", '["own-parameter"]')
    proc = run_cli("scan", CONTEXT_FIXTURES / "cuda_checked", "--catalogue", cat, "--no-cache")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"trnready: error: {cat}:18: entry TRN261: key 'match.unless': context predicate "
                                   "'own-parameter' applies to keyword matchers only")
