"""The result cache: lives outside the scanned tree, hits give identical results, damage only warns."""
import json
import os
from pathlib import Path

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
                fingerprint="f", title="t", occurrences=((3, 20, "TRN122"),),
                occurrence_end_lines=((3, 20, 5),))
    # places in other files and a link target (set by report steps) come back as tuples too
    g = Finding(rule="TRN302", category="custom-cuda-kernel", severity="blocker", confidence="high", path="b.py",
                line=1, column=1, end_line=1, end_column=9, snippet="x", message="m", fix="", docs="", source="",
                fingerprint="g", title="t", elsewhere=(("c.py", 2, 1, "TRN302"),), link_target=("setup.py", 7))
    cache = ResultCache(tmp_path / "cache", "salt")
    cache.put("k", [f], None)
    cache.put("k2", [g], None)
    cache.close()
    again = ResultCache(tmp_path / "cache", "salt")
    hit, other = again.get("k"), again.get("k2")
    again.close()
    assert hit is not None and hit[0] == [f]
    assert other is not None and other[0] == [g] and other[0][0].link_target == ("setup.py", 7)


def test_malformed_cached_summary_is_a_miss_found_when_unpacked(tmp_path):
    # A cached summary is handed to the link step packed, unchecked; the step checks each one it unpacks.
    # One of the wrong shape (a hand edit, a hostile cache directory) must cost a re-scan of that file,
    # never a traceback or a lost linked finding.
    import base64
    import shutil
    import sqlite3

    from conftest import FIXTURES
    from trnready.project.summary import VERSION, compact

    tree, cache = tmp_path / "tree", tmp_path / "cache"
    shutil.copytree(FIXTURES / "project" / "wrapper", tree)
    _, cold = _scan(tree, cache)
    assert any("via models/head.py:6" in f["message"] for f in cold["findings"])
    bad = base64.b64encode(bytes(compact({"v": VERSION, "imports": 5}))).decode()
    db = sqlite3.connect(str(cache / "results-v1.sqlite"))
    rows = [(k, json.loads(d)) for k, d in db.execute("SELECT key, data FROM results")]
    tampered = 0
    for key, entry in rows:
        if isinstance(entry, dict) and entry.get("summary_z"):
            entry["summary_z"] = bad
            db.execute("UPDATE results SET data = ? WHERE key = ?", (json.dumps(entry), key))
            tampered += 1
    db.commit()
    db.close()
    assert tampered >= 2
    proc, warm = _scan(tree, cache)
    assert "Traceback" not in proc.stderr
    assert warm["findings"] == cold["findings"]
    # the malformed entries were replaced (all at once, not one re-run each): the next run answers from the
    # cache with the same findings
    db = sqlite3.connect(str(cache / "results-v1.sqlite"))
    assert not [k for k, d in db.execute("SELECT key, data FROM results") if bad in d]
    db.close()
    _, again = _scan(tree, cache)
    assert again["findings"] == cold["findings"]


def test_the_code_fingerprint_follows_an_edit_of_a_module(tmp_path):
    # the cache salt holds it: results cached by other code (an edited predicate) are not reused
    import shutil

    from trnready.cache import code_fingerprint
    pkg = tmp_path / "trnready"
    shutil.copytree(Path(__file__).resolve().parents[1] / "trnready", pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    before = code_fingerprint(pkg)
    assert code_fingerprint(pkg) == before
    (pkg / "__pycache__").mkdir(exist_ok=True)
    (pkg / "__pycache__" / "x.pyc").write_bytes(b"0")
    assert code_fingerprint(pkg) == before  # bytecode is not code
    target = pkg / "context" / "dtype_table.py"
    st = target.stat()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert code_fingerprint(pkg) != before


def test_a_summary_packed_by_this_run_is_trusted_one_read_back_is_checked():
    # compact() marks what this run's code packed (Fresh, kept through the pickling of worker results); the
    # same bytes read back from the cache are plain bytes and are checked when first unpacked.
    import pickle
    import zlib

    import pytest

    from trnready.project.summary import VERSION, Compacted, Fresh, StaleSummary, compact

    packed = compact({"v": VERSION, "imports": 5})  # of the wrong shape: only a cache could hold that
    assert type(packed) is Fresh and type(pickle.loads(pickle.dumps(packed))) is Fresh
    assert Compacted({"a.py": packed}, {})["a.py"]["imports"] == 5
    with pytest.raises(StaleSummary):
        Compacted({"a.py": bytes(packed)}, {})["a.py"]
    plain = zlib.compress(json.dumps({"v": VERSION, "imports": 5}).encode())  # not even packed in two parts
    with pytest.raises(StaleSummary):
        Compacted({"a.py": plain}, {})["a.py"]
    with pytest.raises(StaleSummary):
        Compacted({"a.py": bytes(packed)}, {}).head("a.py")


def test_waiting_writes_are_flushed_in_batches_so_memory_does_not_grow_with_the_project(tmp_path):
    import sqlite3

    from trnready.cache import FLUSH_CHARS, FLUSH_ENTRIES, ResultCache

    cache = ResultCache(tmp_path, "salt")
    cache.queue("big", json.dumps("x" * FLUSH_CHARS))  # one large entry (a file's links) is written at once
    assert cache.pending == [] and cache.pending_chars == 0
    for i in range(FLUSH_ENTRIES - 1):
        cache.queue(f"k{i}", "1")
    assert len(cache.pending) == FLUSH_ENTRIES - 1  # small ones wait for a full batch
    cache.queue("last", "2")
    assert cache.pending == []
    db = sqlite3.connect(str(tmp_path / "results-v1.sqlite"))
    assert db.execute("SELECT count(*) FROM results").fetchone()[0] == FLUSH_ENTRIES + 1
    db.close()
    cache.close()
