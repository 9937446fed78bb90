"""seeds-every-device: the scopes where torch.manual_seed (or a library seeder) already seeds Neuron. TRN249 drops its
finding there (again since session 53: 38 of 41 precision verdicts on CUDA seeds call them wrong, 33 of those naming
the torch.manual_seed beside it); its scopes also serve test-seed-flags."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MSG = "Seed set for the CUDA generators only: `torch.cuda.{}`"


def test_cuda_seed_next_to_a_seeder_of_every_device_is_silent_alone_it_stays():
    assert scan_findings(CONTEXT_FIXTURES / "seeds_every_device", "--show-guarded") == [
        # seed.py:7 (beside th.manual_seed) and 16 (beside L.seed_everything) are silent: dead on every machine
        ("seed.py", 11, 5, "TRN249", MSG.format("manual_seed"), False),  # set_cuda_seed: nothing else seeds
        ("seed.py", 19, 1, "TRN249", MSG.format("manual_seed"), False),  # module level: th.manual_seed is in a def
        # worker.py:5 is silent beside the module-level seeder
        ("worker.py", 9, 5, "TRN249", MSG.format("seed_all"), False),  # the module-level seeder is another scope
    ]


def test_registered_as_a_drop_for_references_and_calls():
    p = context.get("seeds-every-device")
    assert p.effect == "drop" and set(p.kinds) == {"reference", "call"}
