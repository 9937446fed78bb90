"""project-callee: a mask keyword passed to the project's own encoder class is not the torch call; the torch call
inside that class is reported where it is written."""
import json

from conftest import run_cli

LOBE = '''import torch
from torch import nn


class TransformerEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2)

    def forward(self, x, src_key_padding_mask=None):
        return self.attn(x, x, x, key_padding_mask=src_key_padding_mask)
'''
MODEL = '''import torch
from torch import nn
from sbx.lobes.transformer import TransformerEncoder
from otherlib import Encoder


class M(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = TransformerEncoder()
        self.other = Encoder()
        self.given = encoder

    def forward(self, x, mask):
        a = self.encoder(x, src_key_padding_mask=mask)
        b = self.other(x, src_key_padding_mask=mask)
        c = self.given(x, src_key_padding_mask=mask)
        return a, b, c
'''


def test_a_mask_keyword_to_the_projects_own_class_is_not_reported(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "sbx"\n')
    for d in ("sbx", "sbx/lobes", "sbx/models"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "__init__.py").write_text("")
    (tmp_path / "sbx/lobes/transformer.py").write_text(LOBE)
    (tmp_path / "sbx/models/model.py").write_text(MODEL)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    found = [f for f in json.loads(proc.stdout)["findings"] if f["category"] == "attention-mask"]
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"]) for f in found]
    masked = ("nn.Transformer / TransformerEncoder / TransformerDecoder (layer) called with a padding or non-causal "
              "mask: `src_key_padding_mask`")
    assert got == [
        # the torch call inside the project's encoder: where the port changes the mask
        ("sbx/lobes/transformer.py", 11, 16, "TRN172",
         "nn.MultiheadAttention called with a padding mask or a non-causal attention mask: "
         "`torch.nn.MultiheadAttention.__call__`"),
        # look-alikes that stay: a class of another library, and an encoder handed in (nobody can name it)
        ("sbx/models/model.py", 16, 48, "TRN173", masked),
    ]
    # line 17 (the encoder handed in) is the next statement: one run with line 16, kept as its occurrence
    assert found[1]["occurrences"] == [{"line": 17, "column": 48, "rule": "TRN173"}]
