"""unused-layer: a layer a class builds on `self` and never names again is never run (fresh51: `self.upsample1 =
nn.Upsample(scale_factor=4, mode='bilinear')` in three FlowNet variants whose forward never calls it)."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

UP = "Bilinear or bicubic interpolation: `torch.nn.Upsample`"


def test_a_layer_nothing_names_is_guarded_a_used_or_dynamically_reached_one_stays():
    assert scan_findings(CONTEXT_FIXTURES / "unused_layer", "--show-guarded") == [
        # look-alike: the forward loops over self.children() and calls each layer
        ("blocks.py", 7, 22, "TRN191", UP, False),
        # FlowNetS: built, never named again (its weight-init loop over self.modules() calls no layer)
        ("nets.py", 8, 26, "TRN191", UP, True),
        ("nets.py", 20, 19, "TRN191", UP, False),  # Decoder: self.up(x) in forward
        # look-alike: reached by a computed name, getattr(self, f"up_{level}")
        ("stages.py", 7, 21, "TRN191", UP, False),
    ]


def test_registered_as_a_guard():
    assert context.get("unused-layer").effect == "guard"
