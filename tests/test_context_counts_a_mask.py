"""counts-a-mask: an int64 cumulative sum over a mask counts positions; it never needs the full int64 range."""
import json

from conftest import run_cli

SRC = '''import torch


def positions(input_mask, scores, sizes):
    cumsum_mask = input_mask.cumsum(-1, dtype=torch.long)
    kept = torch.cumsum(scores > 0, 0, dtype=torch.int64)
    offsets = sizes.cumsum(0, dtype=torch.long)
    ids = torch.cumsum(token_ids, 0, dtype=torch.long)
    mask_idx = torch.arange(4)
    total = mask_idx.cumsum(0, dtype=torch.long)
    return cumsum_mask, kept, offsets, ids, total
'''


def test_a_cumulative_sum_over_a_mask_is_not_reported_and_other_int64_sums_are(tmp_path):
    (tmp_path / "positions.py").write_text(SRC)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    report = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN132"]
    # lines 5-6: a mask by its name and by a comparison; 7, 8 and 10 sum sizes, ids and positions (one run of
    # neighbouring statements: 8 and 10 are occurrences of 7)
    found = [(f["line"], f["column"]) for f in report] + [(o["line"], o["column"]) for o in report[0]["occurrences"]]
    assert found == [(7, 15), (8, 11), (10, 13)]
