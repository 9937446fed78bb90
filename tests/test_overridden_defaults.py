"""A default every call in the project overrides is reported at medium confidence (project/overridden.py)."""
import json

from conftest import run_cli

NOTE = " (every call in the project passes `device`: the default is used only by callers outside it)"
CUDA = '"cuda" device string: `cuda`'


def _findings(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f["confidence"])
            for f in json.loads(proc.stdout)["findings"]]


def test_defaults_every_call_passes_are_medium_with_the_reason(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "metrics.py").write_text('''import torch


class MetricsTracker:
    def __init__(self, max_metrics=32, device="cuda"):
        self.metrics = torch.zeros(max_metrics, device=device)


def merge(model, out, device="cuda"):
    return model.to(device)


def pick(x, device="cuda"):
    return x.to(device)


def shared(x, device="cuda"):
    return x.to(device)


def spread(x, device="cuda"):
    return x.to(device)


def unused(x, device="cuda"):
    return x.to(device)
''')
    (tmp_path / "app" / "train.py").write_text('''from .metrics import MetricsTracker, merge, pick, shared, spread


def run(model, dev, cb, args):
    t = MetricsTracker(64, device=dev)
    t2 = MetricsTracker(16, dev)
    m = merge(model, "o", "cpu")
    p = pick(model)
    cb(shared)
    s = spread(model, *args)
    return t, t2, m, p, s
''')
    assert _findings(tmp_path) == [
        # by keyword and by position (the constructor is not given self): every call passes it
        ("app/metrics.py", 5, 47, "TRN242", CUDA + NOTE, "medium"),
        ("app/metrics.py", 9, 30, "TRN242", CUDA + NOTE, "medium"),
        # one call leaves it out; passed as a callback; spread with *args; never called: as it was
        ("app/metrics.py", 13, 20, "TRN242", CUDA, "high"),
        ("app/metrics.py", 17, 22, "TRN242", CUDA, "high"),
        ("app/metrics.py", 21, 22, "TRN242", CUDA, "high"),
        ("app/metrics.py", 25, 22, "TRN242", CUDA, "high"),
    ]
