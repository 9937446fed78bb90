"""old-torch-branch: branches taken only with a torch older than torch-neuronx's are guarded."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

AMP = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"
MODE = "torch.compile mode other than default: `torch.compile`"
GRAPHS = 'torch.compile mode="reduce-overhead" (CUDA graphs): `torch.compile`'


def test_branches_of_older_torch_are_guarded_and_the_current_arm_stays():
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "old_torch_branch", "--show-guarded")
             if f[3] not in ("TRN201", "TRN701", "TRN114")]
    assert found == [
        ("patches.py", 12, 5, "TRN112", MODE, True),  # after `if not is_torch_2_6: return` (startswith("2.6"))
        ("patches.py", 17, 16, "TRN263", GRAPHS, True),  # is_torch_less_or_equal("2.5.1")
        ("patches.py", 19, 16, "TRN112", MODE, True),  # base_version == "2.6.0" and training
        ("patches.py", 20, 12, "TRN112", MODE, False),  # the arm that runs on torch 2.14+
        ("patches.py", 24, 9, "TRN263", GRAPHS, True),  # x if not TORCH_VERSION_AT_LEAST_2_4 else fn
        # line 26, is_torch_version("<", "2.4"), is a place of line 24's finding: compile settings fold to one
        # finding per function, and only findings of the same standing (guarded with guarded) fold together
        ("patches.py", 28, 9, "TRN263", GRAPHS, False),  # is_torch_version(">=", "2.4"): runs on Neuron
        ("patches.py", 34, 9, "TRN263", GRAPHS, False),  # startswith("2.1"): true on 2.14, false on 2.20
        ("patches.py", 39, 9, "TRN263", GRAPHS, False),  # a parameter named torch_version: any value
        ("patches.py", 53, 9, "TRN263", GRAPHS, False),  # a flag set False at the top and True by a `global`
        # line 55 (a constant flag: not a test of the torch version) is a place of line 53's finding
        # hasattr probes of attributes every target torch has (`torch-attributes-present`): the else arm is dead
        ("probes.py", 6, 14, "TRN251", AMP, True),  # else of hasattr(torch.amp, "GradScaler")
        ("probes.py", 8, 59, "TRN251", AMP, True),  # else of `... if hasattr(torch, "amp") else ...`
        ("probes.py", 11, 13, "TRN251", AMP, False),  # hasattr(torch, "xpu"): not in the list, decides nothing
        # (line 13, the same API in the other arm, is a place of line 11's finding)
        ("scaler.py", 7, 16, "TRN251", AMP, True),  # version.parse(torch.__version__) < version.parse("2.4.0")
        ("scaler.py", 14, 16, "TRN251", AMP, False),  # the >= arm runs on Neuron
        ("scaler.py", 15, 12, "TRN251", AMP, True),  # after that arm returns: never reached
        ("scaler.py", 20, 16, "TRN251", AMP, True),  # torch.__version__ < "2.4" (a TorchVersion compares as one)
        ("scaler.py", 21, 12, "TRN251", AMP, False),
        ("scaler.py", 31, 18, "TRN251", AMP, True),  # else of TORCH_VERSION >= (2, 4)
    ]


def test_registered_as_a_guard():
    assert context.get("old-torch-branch").effect == "guard"


FLAG_SET_BY_OLD_TORCH = """\
import torch
from packaging import version

_use_apex = False
_use_native_amp = False
if version.parse(torch.__version__) < version.parse("1.6"):
    from apex import amp
    _use_apex = True
else:
    _use_native_amp = True


def setup(model, opt, fp16):
    if fp16 and _use_apex:
        model, opt = amp.initialize(model, opt)
    if fp16 and _use_native_amp:
        scaler = torch.cuda.amp.GradScaler()
    return model, opt
"""


def test_a_flag_only_an_old_torch_branch_sets_keeps_its_other_value(tmp_path):
    (tmp_path / "trainer.py").write_text(FLAG_SET_BY_OLD_TORCH)
    found = [f[1:4] + (f[5],) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [
        # `_use_apex` is only True in that branch: False with torch-neuronx (the `from apex import amp` of the
        # old-torch branch, line 7, is a place of it: covered-imports)
        (15, 22, "TRN256", True),
        # `_use_native_amp` is set True in the branch torch-neuronx takes: its block stays reported
        (17, 18, "TRN251", False),
    ]
