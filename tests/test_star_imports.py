"""Conventional import names a star import of a project module brings (`[context.values] star-import-names`)."""
import json

from conftest import FIXTURES, run_cli


def test_a_star_import_of_a_project_module_brings_torch():
    proc = run_cli("scan", FIXTURES / "star_imports", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"]) for f in json.loads(proc.stdout)["findings"]]
    # `th` is the short name DGL-style code gives torch (graph-contrastive-learning's scripts)
    assert got == [
        ("dgl_script.py", 5, 24, "TRN242", '"cuda" device string: `cuda:*`'),
        # a mask index in a file that reads torch only through the star (`th.device`): a torch file all the same
        ("dgl_script.py", 12, 12, "TRN104",
         "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"),
        ("trainer.py", 5, 10, "TRN251", "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"),
        ("trainer.py", 7, 12, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"),
    ]
