"""float64-count: a float64 tensor that only counts right predictions or samples is dropped; an accumulator of
losses, a name that only contains a count word (`correction`) and a sum of a product stay reported."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

FIXTURE = CONTEXT_FIXTURES / "float64_count"


def test_counts_dropped_other_float64_accumulators_kept():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"],
            [(o["line"], o["column"]) for o in f.get("occurrences", [])])
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN121"]
    assert got == [("evaluate.py", 12, 44, "TRN121", "float64 or complex128 dtype: `torch.float64`",
                    [(13, 39), (20, 40)])]


def test_the_same_file_with_other_names_reports_every_line(tmp_path):
    text = (FIXTURE / "evaluate.py").read_text()
    text = text.replace("total_correct", "total_right").replace("num_samples", "seen")
    text = text.replace("(labels == predictions).sum(", "(labels * predictions).sum(")
    (tmp_path / "evaluate.py").write_text(text)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    f = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN121"]
    lines = sorted([x["line"] for x in f] + [o["line"] for x in f for o in x.get("occurrences", [])])
    assert lines == [6, 10, 11, 12, 13, 20]


def test_the_double_of_a_comparison_counts(tmp_path):
    # pygcn's accuracy(): `preds.eq(labels).double()` holds zeros and ones; the double of a model output stays
    (tmp_path / "utils.py").write_text(
        "import torch\n\n\ndef accuracy(output, labels):\n    preds = output.max(1)[1].type_as(labels)\n"
        "    correct = preds.eq(labels).double()\n    right = (preds == labels).double().sum()\n"
        "    return correct.sum() / len(labels), right\n\n\ndef logits(model, x):\n    return model(x).double()\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    got = [(f["line"], f["rule"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN122"]
    assert got == [(12, "TRN122")]
