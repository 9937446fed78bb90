"""File step wrapped_reference_calls: calls of a module-level name bound to a wrapped flagged function are places
of the finding at the wrapped reference."""
import json

from conftest import FIXTURES, run_cli


def test_calls_of_a_compiled_flagged_function_are_occurrences_and_not_their_look_alikes():
    proc = run_cli("scan", FIXTURES / "wrapped_reference", "--format", "json", "--no-cache", "--no-config")
    got = [(f["path"], f["line"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN211"]
    # attn.py:11 calls the module-level compiled flex_attention: a place of the line-5 finding. Not places:
    # `model(out)` (a compiled module, not a flagged function), the call of a name bound inside a function
    # (its own finding at line 16), and rebound.py's `flex(...)`: the name is bound twice at module level.
    assert got == [("attn.py", 5, [11]), ("attn.py", 16, []), ("rebound.py", 4, [])]
