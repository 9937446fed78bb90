"""optional-tpu-import: torch_xla imported optionally and used only on TPU / XLA-device paths is no migration item."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_optional_tpu_paths_are_guarded_and_other_uses_stay():
    found = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "optional_tpu_import",
                                                             "--show-guarded")]
    # attention.py: used only under a TPU switch (the handler passes); encode.py: only under an XLA-device test
    # (the handler binds None); required.py: the handler raises; train_xla.py: mark_step on every step;
    # xla_helpers.py: used only in a function and a class named for XLA (xla-switch-words); helpers_neuron_stack.py:
    # the same helper in legacy Neuron code (it imports torch_neuronx), where XLA is the Neuron path;
    # seeding.py: imports inside functions, used only in the try's `else:` arm or not at all (an availability probe
    # returning False), guarded; sync_all uses the name past its try (the handler binds None), kept;
    # engine_flags.py: the import under `if SETTINGS.xla_required:` is neuron-guarded and its use is no finding of
    # its own (optional-import); rng_state.py: used only under the import's own test (`if xm is not None:`, `if xm
    # and ...:`) and in a helper named for a TPU, guarded; rng_state_unchecked.py: one use without that test, kept
    assert found == [
        ("attention.py", 4, "TRN221", True),
        ("encode.py", 4, "TRN221", True),
        ("engine_flags.py", 6, "TRN221", True),
        ("helpers_neuron_stack.py", 4, "TRN221", False),
        ("required.py", 2, "TRN221", False),
        ("rng_state.py", 5, "TRN221", True),
        ("rng_state_unchecked.py", 5, "TRN221", False),
        ("seeding.py", 10, "TRN221", True),
        ("seeding.py", 28, "TRN221", False),
        ("train_xla.py", 2, "TRN221", False),
        ("xla_helpers.py", 2, "TRN221", True),
    ]


def test_registered_as_a_guard():
    assert context.get("optional-tpu-import").effect == "guard"
