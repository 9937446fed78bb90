"""Per-file result cache, kept in the user's cache directory (never in the scanned tree).

A result is keyed by the file's content hash, its path and kind, the catalogue
hash, the selected rules and the tool version, so any change to the code, the
rules or trnready itself misses. A corrupt or unwritable cache is ignored with
one warning: caching is an optimisation, never a reason to fail a scan.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
import sqlite3
import sys
from pathlib import Path

from .model import Diagnostic, Finding
from .project.summary import aside_valid, compact

_SCHEMA = 1
FLUSH_ENTRIES = 500  # writes waiting at most (see ResultCache.queue)
FLUSH_CHARS = 2 << 20

# The field types of Finding and Diagnostic, checked on every entry read back: a valid JSON entry of
# the wrong shape (another build, a hand edit, a hostile cache directory) must be a miss, not a
# crash later when the report is sorted or rendered.
_CHECKS = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "Optional[int]": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    "Optional[str]": lambda v: v is None or isinstance(v, str),
    "tuple[tuple[int, str], ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(n, int) and isinstance(t, str) for n, t in v),
    "tuple[tuple[int, int, str], ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(o, tuple) and len(o) == 3 and isinstance(o[0], int) and isinstance(o[1], int)
        and isinstance(o[2], str) for o in v),
    "tuple[tuple[int, int, int], ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(o, tuple) and len(o) == 3 and all(isinstance(n, int) and not isinstance(n, bool) for n in o)
        for o in v),
    "tuple[tuple[int, int], ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], int) and isinstance(o[1], int) for o in v),
    "tuple[tuple[str, int, int, str], ...]": lambda v: isinstance(v, tuple) and all(
        isinstance(o, tuple) and len(o) == 4 and isinstance(o[0], str) and isinstance(o[1], int)
        and isinstance(o[2], int) and isinstance(o[3], str) for o in v),
    "Optional[tuple[str, int]]": lambda v: v is None or (isinstance(v, tuple) and len(v) == 2
                                                          and isinstance(v[0], str) and isinstance(v[1], int)),
}


def _well_formed(record) -> bool:
    for f in dataclasses.fields(record):
        check = _CHECKS.get(str(f.type))
        if check is None or not check(getattr(record, f.name)):
            return False
    return True


def code_fingerprint(root: Path | None = None) -> str:
    """Size and modification time of every module of the trnready package. A cached result depends on the
    code that produced it (a predicate edited in a development checkout, an upgrade that keeps the version
    string): any change there starts a fresh cache. Stat calls only, no reads (about 150 files)."""
    root = root if root is not None else Path(__file__).resolve().parent
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".py", ".json", ".toml")):
                path = os.path.join(dirpath, name)
                st = os.stat(path)
                h.update(f"{os.path.relpath(path, root)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:16]


def default_cache_dir() -> Path:
    env = os.environ.get("TRNREADY_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("trnready", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ResultCache:
    def __init__(self, directory: Path, salt: str, warn=None):
        self.salt = salt
        self.warn = warn or (lambda msg: print(f"trnready: warning: {msg}", file=sys.stderr))
        self.db: sqlite3.Connection | None = None
        self.pending: list[tuple[str, str]] = []  # only through queue(): it keeps pending_chars
        self.pending_chars = 0
        self.pending_stats: list[tuple[str, str]] = []
        self.disabled_reason: str | None = None
        self._facts: dict = {}  # name -> FileFacts of this scan (see facts())
        self._scanned: tuple = ("", {})  # (root, rel -> content digest) of the scan's files, set by scanning()
        try:
            directory.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(directory / f"results-v{_SCHEMA}.sqlite"), timeout=5)
            self.db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, data TEXT NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS stats (key TEXT PRIMARY KEY, data TEXT NOT NULL)")
            self.db.execute("SELECT count(*) FROM results LIMIT 1").fetchone()
        except (OSError, sqlite3.Error) as e:
            self._disable(f"result cache at {directory} is unusable ({e}); scanning without it")

    def _disable(self, reason: str) -> None:
        if self.disabled_reason is None:
            self.disabled_reason = reason
            self.warn(reason)
        self._close_db()

    def _close_db(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except sqlite3.Error:
                pass
        self.db = None

    def key(self, rel: str, kind: str, digest: str) -> str:
        return hashlib.sha256(f"{self.salt}\0{rel}\0{kind}\0{digest}".encode("utf-8", "surrogatepass")).hexdigest()

    # A first level keyed by the file's stat (size, mtime in ns, inode) says which content hash the
    # file had when it was last read, and which repository-level strings it mentions, so a warm
    # re-scan need not read and hash unchanged files. Results themselves stay keyed by content.
    def stat_key(self, rel: str, st) -> str:
        return hashlib.sha256(f"{self.salt}\0{rel}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}".encode(
            "utf-8", "surrogatepass")).hexdigest()

    def _read(self, table: str, key: str):
        """The decoded JSON stored under key, or None (missing, unreadable or not JSON)."""
        if self.db is None:
            return None
        try:
            row = self.db.execute(f"SELECT data FROM {table} WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as e:
            self._disable(f"result cache read failed ({e}); scanning without it")
            return None
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except ValueError:
            return None

    def get_stat(self, key: str):
        data = self._read("stats", key)
        try:
            digest, mentions = data["digest"], data["mentions"]
        except (TypeError, KeyError):
            return None
        if not isinstance(digest, str) or not isinstance(mentions, list) or \
                not all(isinstance(m, str) for m in mentions):
            return None
        return digest, set(mentions)

    def put_stat(self, key: str, digest: str, mentions) -> None:
        if self.db is not None:
            self.pending_stats.append((key, json.dumps({"digest": digest, "mentions": sorted(mentions)})))

    def get(self, key: str):
        data = self._read("results", key)
        if data is None:
            return None
        try:
            findings = []
            for f in data["findings"]:
                if "context" in f:  # JSON turned the (line, text) tuples into lists
                    f["context"] = tuple((n, t) for n, t in f["context"])
                if isinstance(f.get("occurrences"), list):
                    f["occurrences"] = tuple(tuple(o) if isinstance(o, list) else o for o in f["occurrences"])
                if isinstance(f.get("occurrence_end_lines"), list):
                    f["occurrence_end_lines"] = tuple(tuple(o) if isinstance(o, list) else o
                                                      for o in f["occurrence_end_lines"])
                if isinstance(f.get("occurrence_file_lines"), list):
                    f["occurrence_file_lines"] = tuple(tuple(o) if isinstance(o, list) else o
                                                       for o in f["occurrence_file_lines"])
                if isinstance(f.get("elsewhere"), list):
                    f["elsewhere"] = tuple(tuple(o) if isinstance(o, list) else o for o in f["elsewhere"])
                if isinstance(f.get("link_target"), list):
                    f["link_target"] = tuple(f["link_target"])
                findings.append(Finding(**f))
            diag = Diagnostic(**data["diag"]) if data.get("diag") else None
            packed = aside = None
            if data.get("summary_z") is not None:
                # Kept packed as the link step holds it (project/summary.py compact) and handed on without
                # being decoded: the link step checks each summary it unpacks (Compacted raises
                # StaleSummary, and api.scan scans that file again). Only its small fields read for every
                # file travel unpacked, and are checked here.
                packed = base64.b64decode(data["summary_z"], validate=True)
                aside = data["aside"]
                if aside is not None:
                    aside = tuple(aside)
                    if not aside_valid(aside):
                        return None
        except (ValueError, TypeError, KeyError, AttributeError):
            return None  # an entry from an incompatible build: treat as a miss
        if not all(map(_well_formed, findings)) or (diag is not None and not _well_formed(diag)):
            return None
        return findings, diag, packed, aside

    def put(self, key: str, findings: list[Finding], diag: Diagnostic | None, summary: dict | None = None,
            packed: bytes | None = None, aside=None) -> None:
        """`packed`: the summary as compact() packed it, when the caller has it already; `aside`: its
        fields noted aside (api._aside), kept unpacked next to it."""
        if self.db is None:
            return
        # vars() rather than dataclasses.asdict(): the records are flat, and asdict's deep copy
        # was most of the cost of writing the cache on a cold scan.
        payload: dict = {"findings": [vars(f) for f in findings], "diag": vars(diag) if diag else None}
        if summary is not None or packed is not None:  # what the project-wide link step needs (project/summary.py)
            payload["summary_z"] = base64.b64encode(packed if packed is not None else compact(summary)).decode("ascii")
            payload["aside"] = aside
        self.queue(key, json.dumps(payload, ensure_ascii=False))

    def queue(self, key: str, data: str) -> None:
        """A results-table write, made at the next flush. Writes wait in batches (one transaction each), flushed
        at FLUSH_ENTRIES entries or FLUSH_CHARS characters: the link step's entries (each file's links with the
        hashes of every file they read) reached 7 MiB on diffusers/src when they all waited for the end."""
        self.pending.append((key, data))
        self.pending_chars += len(data)
        if len(self.pending) >= FLUSH_ENTRIES or self.pending_chars >= FLUSH_CHARS:
            self.flush()

    def flush(self) -> None:
        if self.db is None or not (self.pending or self.pending_stats):
            self.pending, self.pending_stats, self.pending_chars = [], [], 0
            return
        try:
            with self.db:
                self.db.executemany("INSERT OR REPLACE INTO results (key, data) VALUES (?, ?)", self.pending)
                self.db.executemany("INSERT OR REPLACE INTO stats (key, data) VALUES (?, ?)", self.pending_stats)
        except sqlite3.Error as e:
            self._disable(f"result cache write failed ({e}); results not cached")
        self.pending, self.pending_stats, self.pending_chars = [], [], 0

    def forget(self, keys: list[str]) -> None:
        """Drop result entries, with every write this run has not made yet (they may rest on them)."""
        self.pending, self.pending_stats, self.pending_chars = [], [], 0
        if self.db is not None:
            try:
                with self.db:
                    self.db.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in keys])
            except sqlite3.Error as e:
                self._disable(f"result cache write failed ({e}); results not cached")

    def scanning(self, root: str, files, digests) -> None:
        """The scan's files and their content digests: what facts() entries are keyed by."""
        self._scanned = (root, {sf.rel: d for sf, d in zip(files, digests) if d})
        self._facts = {}

    def facts(self, name: str) -> FileFacts:
        """The scan's store of per-file facts called `name` (read from the cache on first use)."""
        got = self._facts.get(name)
        if got is None:
            got = self._facts[name] = FileFacts(self, name, *self._scanned)
        return got

    def done_with_facts(self) -> None:
        """Free the stores of per-file facts (the steps using them are over)."""
        self._facts = {}

    def close(self) -> None:
        self.done_with_facts()
        self.flush()
        self._close_db()


class StepMemo:
    """What a project-wide step concluded, kept in the result cache under the digests of the files it read:
    a warm re-scan of an unchanged tree answers from here and reads no summary for that step."""

    def __init__(self, cache: ResultCache | None, step: str):
        self.cache = cache if cache is not None and cache.db is not None else None
        self.step = step

    def key(self, files, digests) -> str | None:
        """One key for the Python files and their content digests (None when a digest is missing)."""
        if self.cache is None or len(digests) != len(files) or not all(digests):
            return None
        h = hashlib.sha256(f"{self.cache.salt}\0{self.step}".encode())
        for sf, digest in zip(files, digests):
            if sf.kind == "python":
                h.update(f"\0{sf.rel}\0{digest}".encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def get(self, key: str | None):
        return None if key is None or self.cache is None else self.cache._read("results", key)

    def put(self, key: str | None, value) -> None:
        if key is not None and self.cache is not None:
            self.cache.queue(key, json.dumps(value, ensure_ascii=False))


class LastAnswer:
    """A project step's last answer for the scanned root, with the content digests of the files it was judged on
    and what it read of them (the step says what): after an edit, the step checks that the edited files hold
    nothing it read and answers from here, instead of judging every verdict again. One entry per root and step,
    replaced by each scan that judges or re-checks it."""

    def __init__(self, cache: ResultCache | None, step: str):
        self.cache = cache if cache is not None and cache.db is not None else None
        self.step = step

    def _key(self) -> str:
        root = self.cache._scanned[0] if self.cache is not None else ""
        salt = self.cache.salt if self.cache is not None else ""
        return hashlib.sha256(f"{salt}\0last\0{self.step}\0{root}".encode("utf-8", "surrogatepass")).hexdigest()

    def get(self):
        if self.cache is None:
            return None
        got = self.cache._read("results", self._key())
        return got if isinstance(got, dict) else None

    def put(self, value: dict) -> None:
        if self.cache is not None:
            self.cache.queue(self._key(), json.dumps(value, ensure_ascii=False, separators=(",", ":")))


class LinkMemo:
    """What the engine said about each stand-alone snippet of the link step, kept in the result
    cache: a warm re-scan runs the engine only on snippets that changed (an edited file)."""

    def __init__(self, cache: ResultCache | None):
        self.cache = cache

    def _key(self, key: str) -> str:
        salt = self.cache.salt if self.cache is not None else ""
        return hashlib.sha256(f"{salt}\0link\0{key}".encode()).hexdigest()

    def get(self, key: str):
        if self.cache is None:
            return None
        data = self.cache._read("results", self._key(key))
        if not isinstance(data, dict) or not all(
                isinstance(r, str) and isinstance(v, list) and len(v) == 3 and isinstance(v[0], str)
                and isinstance(v[1], str) and isinstance(v[2], bool) for r, v in data.items()):
            return None
        return data

    def put(self, key: str, value: dict) -> None:
        if self.cache is not None and self.cache.db is not None:
            self.cache.queue(self._key(key), json.dumps(value, ensure_ascii=False))


class FileFacts:
    """What a project step derives from one file's text or summary (its words, the names it looks up), kept in the
    result cache under the file's path and content digest: after an edit, a step that reads every file derives the
    facts of the edited files only, and reads the others' text only where a fact says it must. One entry per file
    and store, like the per-file results (one entry for the whole store, written back after an edit, cost 7 MiB of
    peak memory on a cold scan of 1,000 files). `valid(fact)`: the shape a fact read back must have (anything else
    is derived again)."""

    def __init__(self, cache: ResultCache, name: str, root: str, digests: dict):
        self.cache = cache if cache.db is not None else None
        self.digests = digests
        self.salt = f"{cache.salt}\0facts\0{name}\0{root}"
        self._decoded: dict = {}

    def _key(self, rel: str, digest: str) -> str:
        return hashlib.sha256(f"{self.salt}\0{rel}\0{digest}".encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, rel: str, valid=None):
        """The fact kept for the file's current content, or None."""
        digest = self.digests.get(rel)
        if digest is None or self.cache is None:
            return None
        fact = self.cache._read("results", self._key(rel, digest))
        return fact if fact is not None and (valid is None or valid(fact)) else None

    def get_for(self, rel: str, digest: str, valid=None):
        """The fact kept for the file as it was at another content digest (an earlier scan's), or None."""
        if self.cache is None:
            return None
        fact = self.cache._read("results", self._key(rel, digest))
        return fact if fact is not None and (valid is None or valid(fact)) else None

    def decoded(self, rel: str, valid, decode):
        """decode(fact) of the fact kept for the file's current content (None when there is none, or when decode
        says None), decoded once per scan: for a step asking each file several times."""
        if rel in self._decoded:
            return self._decoded[rel]
        got = self.get(rel, valid)
        got = self._decoded[rel] = decode(got) if got is not None else None
        return got

    def put(self, rel: str, fact) -> None:
        """Keep a fact derived from the file's content as the scan read it (JSON values only)."""
        digest = self.digests.get(rel)
        if digest is not None and self.cache is not None:
            self.cache.queue(self._key(rel, digest), json.dumps(fact, ensure_ascii=False, separators=(",", ":")))
            self._decoded.pop(rel, None)
