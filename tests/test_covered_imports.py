"""covered-imports (file step one_per_thing): an import whose every name another rule's findings in the file cover is
a place of that rule's first finding ("apex.amp>TRN256"; fresh50 second.pytorch, fresh51 mellotron)."""
import json

from conftest import run_cli


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], [(o["line"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_an_apex_amp_import_beside_its_calls_is_a_place_of_the_amp_finding(tmp_path):
    (tmp_path / "train.py").write_text(
        "def train(model, optimizer, loss, fp16):\n"
        "    if fp16:\n"
        "        from apex import amp\n"
        "        model, optimizer = amp.initialize(model, optimizer, opt_level='O1')\n"
        "    with amp.scale_loss(loss, optimizer) as scaled:\n"
        "        scaled.backward()\n")
    # look-alike: an import naming more of Apex than its AMP (FusedAdam stays to replace) keeps its own finding
    (tmp_path / "fused.py").write_text(
        "from apex import amp, optimizers\n"
        "model, opt = amp.initialize(model, optimizers.FusedAdam(model.parameters()))\n")
    got = _scan(tmp_path)
    assert ("train.py", 4, "TRN256", [(3, "TRN283"), (4, "TRN283"), (5, "TRN256"), (5, "TRN283")]) in got
    assert not any(p == "train.py" and r == "TRN283" for p, _, r, _ in got)
    assert [(p, ln, r) for p, ln, r, _ in got if p == "fused.py"] == [("fused.py", 1, "TRN283"),
                                                                     ("fused.py", 2, "TRN256")]
