"""cpu-saved: torch.load of a checkpoint file the same file writes from CPU tensors (pix2pixHD's save_network /
load_network pair, few-shot-vid2vid in fresh51)."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

LOAD = "torch.load without map_location: tensors saved from CUDA are restored to CUDA, which Trainium lacks"


def test_a_load_of_what_the_file_saves_from_the_cpu_is_silent_the_others_stay():
    assert [f[:5] for f in scan_findings(CONTEXT_FIXTURES / "cpu_saved") if f[3] == "TRN351"] == [
        # load_network (line 13) reads "%s_net_%s.pth", which save_network writes from network.cpu(): silent.
        # load_optimizer: "%s_optim.pth" is saved from the optimizer's state as it is (device tensors)
        ("base_model.py", 19, 35, "TRN351", LOAD),
        # load_pretrained: a file no save of this file writes
        ("base_model.py", 22, 33, "TRN351", LOAD),
    ]


def test_registered():
    assert context.get("cpu-saved") is not None
