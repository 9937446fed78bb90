"""flag-selected-definition: uses of an optional CUDA-only package inside defs the file picks only when its import
worked are guarded; a def also built unconditionally, or picked in the flag-false arm, keeps its finding."""
import json

from conftest import CONTEXT_FIXTURES, run_cli


def _scan(*extra):
    proc = run_cli("scan", CONTEXT_FIXTURES / "flag_selected_definition", "--format", "json", "--no-cache",
                   "--exit-zero", *extra)
    return [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN284"]


def test_picked_only_under_the_flag_is_guarded_others_stay():
    # line 20: FastAttention, named only in `FastAttention if HAVE_XF else ...`; line 25: FastBlock, the value of
    # the dict entry whose key "fast" the file sets only under `if HAVE_XF and ...`; line 30: AlwaysFast, built
    # unconditionally; line 57: NegatedPick, named in the flag-false arm (the path a Trainium host takes)
    assert [f["line"] for f in _scan()] == [30, 57]
    # shown, the guarded uses are places of the guarded optional import (uses fold into their import's finding)
    shown = {f["line"]: f for f in _scan("--show-guarded")}
    assert shown[7]["guarded"] and {o["line"] for o in shown[7].get("occurrences") or ()} >= {20, 25}
