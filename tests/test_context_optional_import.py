"""optional-import: uses of a name imported under an optional-import guard repeat the (reported) import."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_uses_through_an_optional_import_are_silent():
    found = scan_findings(CONTEXT_FIXTURES / "optional_import", "--show-guarded")
    assert found == [
        # `except ImportError: raise ...`: labelled optional by the try, but the program stops without it
        ("xla_insisted.py", 2, 5, "TRN221", "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): "
         "`torch_xla.core.xla_model`", False),  # its use at line 8 is folded into it (one per library per file)
        # the import itself stays (medium confidence, and guarded: a TPU path); `xm.mark_step()` is not repeated
        ("xla_optional.py", 6, 5, "TRN221", "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): `torch_xla.core.xla_model` "
         "(optional import: guarded by try/except or an availability check)", True),
        # a required import: reported, with every use as one of its occurrences (line 6)
        ("xla_required.py", 1, 1, "TRN221", "PyTorch/XLA (XLA devices; the stack Neuron used before 2.14): `torch_xla.core.xla_model`",
         False),
    ]


def test_registered_for_reference_matchers():
    assert context.get("optional-import").kinds == ("reference",)
