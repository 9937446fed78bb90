"""host-only-script: a script run by hand that never touches an accelerator runs its library calls on the CPU."""
from conftest import guarded_rows, CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_a_converter_that_names_no_device_is_guarded_and_the_others_stay():
    found = scan_findings(CONTEXT_FIXTURES / "host_only_script", "--show-guarded")
    assert [(f[0], f[1], f[3], f[5]) for f in found if f[3] == "TRN287"] == [
        ("convert.py", 3, "TRN287", True),  # a `__main__` script naming no device
        ("library.py", 1, "TRN287", False),  # no `__main__`: a module others import
        ("named.py", 4, "TRN287", False),  # a collective backend named
        ("placed.py", 3, "TRN287", False),  # `.to(...)` of anything but a dtype or "cpu"
        ("reads_device.py", 3, "TRN287", False),  # reads a tensor's `.device`
    ]


def test_float64_of_a_cpu_program_is_guarded_unless_a_library_places_its_model():
    # float64 (`host-only-categories`) in a script naming no device stays on the CPU; a `device_map=` or a trainer
    # class puts the model on a device without the script naming one
    found = scan_findings(CONTEXT_FIXTURES / "host_only_script", "--show-guarded")
    assert [(f[0], f[1], f[3], f[5]) for f in found if f[3] in ("TRN121", "TRN122")] == [
        ("device_map.py", 5, "TRN121", False),
        ("toy.py", 4, "TRN121", True),
        ("trainer.py", 5, "TRN122", False),
    ]


def test_dynamic_shapes_of_a_cpu_program_are_guarded_and_to_an_indexed_tensor_is_no_placement():
    # dynamic shapes (`host-only-categories`) of a `__main__` script naming no device run eagerly on the CPU;
    # `.to(times)` follows a tensor the function indexes (torchdiffeq's learn_physics example, fresh29), while
    # `.to(dev)` of a name never indexed may pick a device
    found = guarded_rows(CONTEXT_FIXTURES / "host_only_script")
    assert [f for f in found if f[3] == "TRN104"] == [
        ("follows.py", 6, 12, "TRN104", "host-only-script"),
        # not this predicate's: since session 45 off-step guards it (only the `__main__` block, which runs no
        # training step, calls simulate)
        ("follows_device.py", 6, 12, "TRN104", "off-step"),
        # an autograd Function smoke-tested on CPU tensors is device code the model imports (SSD's `Detect`,
        # Simple-CV-Pytorch-master, blind81)
        ("function_selftest.py", 8, 16, "TRN104", ""),
        # an nn.Module program reading its command line is a script run by hand: its model stays on the CPU
        ("model_program.py", 9, 16, "TRN104", "host-only-script"),
        # a model module whose `__main__` only builds the model (a smoke test, no command line) is the model the
        # project's training code imports and places: its forward runs on the device (efficientdet, blind50)
        ("model_selftest.py", 8, 16, "TRN104", ""),
    ]


def test_registered_as_a_guard():
    assert context.get("host-only-script").effect == "guard"
