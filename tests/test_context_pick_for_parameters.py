"""pick-for-parameters: a device pick read only where a module's own parameters and buffers are first made."""
from __future__ import annotations

import json

from conftest import run_cli


def scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return [(f["line"], f["column"], f["rule"], f["message"]) for f in json.loads(proc.stdout)["findings"]]


def test_a_pick_only_for_a_parameter_or_buffer_is_no_item(tmp_path):
    (tmp_path / "layers.py").write_text('''import torch


class Attention(torch.nn.Module):
    def __init__(self, periods):
        super().__init__()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self._attention = torch.nn.Parameter(torch.empty(periods, device=device))
        self.register_buffer("scale", torch.ones(periods, device=device))
''')
    assert scan(tmp_path) == []


def test_a_pick_used_for_anything_else_stays(tmp_path):
    (tmp_path / "layers.py").write_text('''import torch


class Attention(torch.nn.Module):
    def __init__(self, periods):
        super().__init__()
        device = "cuda" if torch.cuda.is_available() else "cpu"
        self._attention = torch.nn.Parameter(torch.empty(periods, device=device))
        self.device = device


class Step(torch.nn.Module):
    def forward(self, x):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return x + torch.nn.Parameter(torch.zeros(3, device=device)) + torch.ones(3, device=device)


def build(periods):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.nn.Parameter(torch.empty(periods, device=device))
''')
    # line 7: the pick is also kept on self; line 14: also a tensor of the forward pass; line 19: not in a class
    message = '"cuda" device string: `cuda`'
    assert scan(tmp_path) == [(7, 18, "TRN242", message), (14, 31, "TRN242", message), (19, 27, "TRN242", message)]
