"""Link step: a helper's call inside an arm of `if <parameter> == <literal>:` is reached only by callers whose
literal takes that arm (fresh50: PyTorch-StudioGAN's `make_resizer("PIL", "bilinear", ...)` resizes with PIL; only
`make_resizer("PyTorch", ...)` reaches its F.interpolate)."""
import json

from conftest import FIXTURES, run_cli


def test_a_literal_that_rules_out_the_arm_reaches_nothing():
    proc = run_cli("scan", FIXTURES / "link_param_arms", "--no-config", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        # the `library in ("PyTorch", "torch")` arm, taken by "PyTorch"
        ("use.py", 4, 5, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate` (via use.py:4 "
         "make_resizer('PyTorch', 'bilinear', (299, 299)) → helpers.py:10 F.interpolate)"),
        # a library name the scanner cannot read leaves every arm in
        ("use.py", 5, 5, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate` (via use.py:5 "
         "make_resizer('bicubic', (299, 299)) → helpers.py:10 F.interpolate)"),
        # the default backend="torch" passes the early `if backend != "torch": return x`
        ("use.py", 7, 5, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate` (via use.py:7 "
         "resize(None, mode='bilinear') → helpers.py:19 F.interpolate)"),
        # look-alikes, not reported: make_resizer("PIL", "bilinear", ...) (the PIL arm) and resize(...,
        # backend="pil") (returns before the interpolate)
    ]
