"""not-ray-resource-dict: a `gpu` count is a Ray Tune resource request only as a dict entry in a file using Ray."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

MESSAGE = "GPU resource requested for Ray Tune trials in a resource dict: `gpu`"


def test_trial_resource_dicts_in_ray_files_only():
    proc = run_cli("scan", CONTEXT_FIXTURES / "not_ray_resource_dict", "--format", "json", "--no-cache", "--no-config")
    assert proc.returncode in (0, 1), proc.stderr
    found = [(f["path"], f["line"], f["column"], f["rule"], f["message"], [o["line"] for o in f.get("occurrences") or ()])
             for f in json.loads(proc.stdout)["findings"]]
    # tune.py:7 the default resources and line 8 the per-trial dict of two GPUs (the `{"gpu": 0}` arm asks for
    # none); not: the `--gpu` option's default (a device index), the dict of a file that does not use Ray
    assert found == [("tune.py", 7, 56, "TRN610", MESSAGE, [8])]


def test_registered_for_keyword_matchers():
    p = context.get("not-ray-resource-dict")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "Ray" in p.doc
