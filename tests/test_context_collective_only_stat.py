"""collective-only-stat: Python statistics put in a float64 tensor only for a collective are no model tensor."""
from conftest import scan_findings

SRC = '''import numpy as np
import torch
import torch.distributed as dist


class Meter:
    def sync(self):
        t = torch.tensor([self.n, self.sum], dtype=torch.float64, device="cuda")
        dist.barrier()
        dist.all_reduce(t)
        t = t.tolist()
        self.n = int(t[0])
        self.sum = t[1]

    def sync_items(self):
        stats = torch.tensor([self.n * 2, 1.0], dtype=torch.float64, device="cuda")
        dist.all_reduce(stats)
        return stats[0].item(), stats[1].item()

    def sync_and_scale(self, x):
        t = torch.tensor([self.n, self.sum], dtype=torch.float64, device="cuda")
        dist.all_reduce(t)
        return x * t

    def never_reduced(self):
        t = torch.tensor([self.n, self.sum], dtype=torch.float64, device="cuda")
        return t.tolist()

    def from_tensors(self, a, b):
        t = torch.tensor([a.sum(), b], dtype=torch.float64, device="cuda")
        dist.all_reduce(t)
        return t.tolist()

    def logged(self, pred, ious):
        total = pred.new_tensor([np.sum(ious)], dtype=torch.float64)
        self.sum += total.item()

    def logged_then_used(self, pred, ious):
        total = pred.new_tensor([np.sum(ious)], dtype=torch.float64)
        return pred * total
'''


def test_a_float64_tensor_of_python_stats_only_reduced_and_read_back_is_guarded(tmp_path):
    (tmp_path / "meter.py").write_text(SRC)
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN121"]
    # 8 and 16 only go through all_reduce and back to Python, 26 and 35 only back to Python (a NumPy sum of host
    # values); 21 and 39 are multiplied into a tensor; 30 is built from a tensor method's result
    assert found == [(8, True), (16, True), (21, False), (26, True), (30, False), (35, True), (39, False)]
