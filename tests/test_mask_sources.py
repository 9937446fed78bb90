"""mask_sources: the argument where a mask handed down through the file's own blocks enters the chain is a place
of the attention finding (trnready/mask_sources.py)."""
import json

from conftest import CONTEXT_FIXTURES, FIXTURES, run_cli

from trnready import scan


def _places(name, folder=CONTEXT_FIXTURES / "mask_sources"):
    proc = run_cli("scan", folder / name, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_mask_built_in_the_model_is_a_place_of_the_layer_finding():
    # 20: the attention call in EncoderLayer.attend; its mask comes from forward (self.attend), the Encoder's loop
    # over cloned layers (a constructor parameter filled with EncoderLayer in Model.__init__), and Model.forward,
    # which builds it: `seq_mask` at 46 is the place. The Encoder's own parameter (33) and an explicit None (49)
    # are not.
    # (the accuracy fixture of this pattern, read here for its places)
    assert _places("mask_from_model.py", FIXTURES / "accuracy" / "attention-mask") == [(20, 16, "TRN172", [(46, 55)])]


def test_indexed_container_and_positional_argument():
    # `self.blocks[i](x, pad)` passes a mask built in Net.forward (22); `self.head(x, causal=None)` passes none,
    # and a block called outside any class (27) is the link step's business, not seen here
    assert _places("direct.py") == [(10, 16, "TRN172", [(22, 35)])]


def test_without_a_mask_parameter_only_the_line_building_it_is_added(tmp_path):
    # a mask the method builds itself (`pad = x.eq(0)`, line 7) is listed as the finding's place (session 49: the
    # line a reader changes to bucket or drop the mask); no caller is walked
    src = tmp_path / "m.py"
    src.write_text("import torch.nn as nn\n"
                   "class B(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.attn = nn.MultiheadAttention(8, 2)\n"
                   "    def forward(self, x):\n"
                   "        pad = x.eq(0)\n"
                   "        return self.attn(x, x, x, key_padding_mask=pad)[0]\n")
    report = scan([str(src)])
    (f,) = [f for f in report.findings if f.rule == "TRN172"]
    assert (f.line, f.occurrences) == (8, ((7, 15, "TRN172"),))


def test_layers_appended_to_a_module_list_and_the_rules_other_mask():
    # `self.cross.append(CrossLayer(...))` keeps the layers (Mask2Former's decoder); the finding's first matcher is
    # the padding mask, which the decoder leaves None, while its attention mask (`attn_mask=memory_mask`) is built
    # at 24 and handed in at 26: that argument is the place
    assert _places("appended.py") == [(11, 15, "TRN172", [(26, 66)])]
