"""env-read-only: a variable name used only to read the variable sets nothing."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context


def test_reads_are_silent_and_writes_stay():
    # 4-7: os.environ.get, os.getenv, os.environ[...] as a value, `in environ` (reads); 8-10: writes, one finding
    # for the file with the later ones as its places (without the predicate the reads are its first places)
    proc = run_cli("scan", CONTEXT_FIXTURES / "env_read_only", "--format", "json", "--no-cache")
    found = [(f["path"], f["line"], f["rule"], [o["line"] for o in f.get("occurrences") or []])
             for f in json.loads(proc.stdout)["findings"]]
    assert found == [("dist.py", 8, "TRN277", [9, 10])]


def test_registered_as_a_drop():
    assert context.get("env-read-only").effect == "drop"
