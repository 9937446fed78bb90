"""The result cache: lives outside the scanned tree, hits give identical results, damage only warns."""
import json
import os

from conftest import run_cli

SRC = "import torch.nn.functional as F\ny = F.interpolate(x, mode='bilinear')\nz = t.cuda()\n"


def _scan(tree, cache, *extra):
    proc = run_cli("scan", tree, "--format", "json", *extra, env={"TRNREADY_CACHE_DIR": str(cache)})
    assert proc.returncode in (0, 1), proc.stderr
    return proc, json.loads(proc.stdout)


def test_cache_is_written_outside_the_tree_and_reused(tmp_path):
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    (tree / "a.py").write_text(SRC)
    _, cold = _scan(tree, cache)
    assert sorted(os.listdir(tree)) == ["a.py"]
    assert any(p.suffix == ".sqlite" for p in cache.iterdir())
    _, warm = _scan(tree, cache)
    assert warm["findings"] == cold["findings"]
    # An edit is seen at once: the key is the content, not the mtime.
    (tree / "a.py").write_text(SRC.replace("bilinear", "nearest"))
    _, edited = _scan(tree, cache)
    assert [f["rule"] for f in edited["findings"]] == ["TRN241"]


def test_corrupt_cache_warns_and_scans(tmp_path):
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    (tree / "a.py").write_text(SRC)
    cache.mkdir()
    (cache / "results-v1.sqlite").write_bytes(b"this is not a database" * 100)
    proc, data = _scan(tree, cache)
    assert "warning" in proc.stderr and "cache" in proc.stderr
    assert {f["rule"] for f in data["findings"]} == {"TRN191", "TRN241"}


def test_unusable_cache_location_warns_and_scans(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text(SRC)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    proc, data = _scan(tree, blocker / "cache")
    assert "warning" in proc.stderr
    assert len(data["findings"]) == 2


def test_selected_rules_are_part_of_the_key(tmp_path):
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    (tree / "a.py").write_text(SRC)
    _, only = _scan(tree, cache, "--select", "TRN191")
    _, everything = _scan(tree, cache)
    assert [f["rule"] for f in only["findings"]] == ["TRN191"]
    assert {f["rule"] for f in everything["findings"]} == {"TRN191", "TRN241"}


def test_same_size_edit_is_seen_even_right_after_a_scan(tmp_path):
    import time

    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    src = tree / "a.py"
    src.write_text("import torch.nn.functional as F\ny = F.interpolate(x, mode='bilinear')\n")
    old = time.time() - 60
    os.utime(src, (old, old))  # an old file: its stat is trusted on the next scan
    _, first = _scan(tree, cache)
    _, second = _scan(tree, cache)  # answered from the stat level
    assert first["findings"] == second["findings"] and second["findings"][0]["rule"] == "TRN191"
    src.write_text("import torch.nn.functional as F\ny = F.interpolate(x, mode='bicubic_')\n")  # same size
    _, third = _scan(tree, cache)
    assert third["findings"] == []


def test_findings_with_folded_occurrences_come_back_from_the_cache(tmp_path):
    # JSON turns the occurrence tuples into lists; a finding that folded repeats must still be a hit
    # (it was a miss on every warm run before, so warm re-scans re-parsed every file with findings).
    from trnready.cache import ResultCache
    from trnready.model import Finding

    f = Finding(rule="TRN122", category="float64", severity="advisory", confidence="medium", path="a.py", line=3,
                column=5, end_line=3, end_column=9, snippet="x", message="m", fix="", docs="", source="",
                fingerprint="f", title="t", occurrences=((3, 20, "TRN122"),))
    cache = ResultCache(tmp_path / "cache", "salt")
    cache.put("k", [f], None)
    cache.close()
    again = ResultCache(tmp_path / "cache", "salt")
    hit = again.get("k")
    again.close()
    assert hit is not None and hit[0] == [f]
