"""autocast-never-enabled: autocast switched off in a project that never switches it on is a no-op anywhere."""
from conftest import CONTEXT_FIXTURES, scan_findings

FIX = CONTEXT_FIXTURES / "autocast_off"


def _amp(name):
    return [(f[0], f[1], f[3], f[5]) for f in scan_findings(FIX / name, "--show-guarded") if f[3] == "TRN251"]


def test_islands_and_an_alias_only_called_switched_off_are_guarded():
    # line 11: enabled=False; line 4: the alias, called only with enabled=self.args.mixed_precision, a name the
    # project only ever sets to False (run.py)
    assert _amp("off") == [("modules.py", 4, "TRN251", True), ("modules.py", 11, "TRN251", True)]


def test_a_project_switching_autocast_on_anywhere_keeps_them():
    # train.py's torch.autocast(device_type=device.type) is no finding, but it switches autocast on: the Neuron
    # autocast would not be switched off by the CUDA-only islands
    assert _amp("on") == [("modules.py", 4, "TRN251", False), ("modules.py", 11, "TRN251", False)]


def test_a_switch_name_the_command_line_can_set_is_not_off():
    # `--mixed_precision` is a flag: the alias call may switch autocast on, so nothing is guarded
    assert _amp("flag") == [("modules.py", 4, "TRN251", False), ("modules.py", 11, "TRN251", False)]


def test_islands_in_a_packaged_library_stay():
    # the same code below a setup.py: the library's users may call it under an autocast of their own
    assert _amp("packaged") == [("lib/modules.py", 4, "TRN251", False), ("lib/modules.py", 11, "TRN251", False)]
