"""host-model-copy: a float64 copy of a model taken on the host, before the model is moved, is host data."""
from conftest import scan_findings

SRC = '''import copy
import torch


def train(net, device, keep_average):
    shadow = None
    if keep_average:
        shadow = copy.deepcopy(net).to(torch.float64)
    net.to(device)
    return shadow


def train_double(net, device):
    shadow = copy.deepcopy(net).double()
    net.cuda()
    return shadow


def moved_first(net, device):
    net.to(device)
    shadow = copy.deepcopy(net).to(torch.float64)
    return shadow


def copy_moved_too(net, device):
    shadow = copy.deepcopy(net).to(torch.float64)
    net.to(device)
    shadow.to(device)
    return shadow


def never_moved(net):
    shadow = copy.deepcopy(net).to(torch.float64)
    return shadow
'''


def test_a_float64_model_copy_made_before_the_model_moves_is_host_data(tmp_path):
    (tmp_path / "avg.py").write_text(SRC)
    found = sorted((f[1], f[3]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] in ("TRN121", "TRN122"))
    # 8 and 14 are taken before the model moves and never moved; 21 is taken after the model moved; 26 is moved
    # itself; 33 has no move of the model to show where the model is
    assert found == [(21, "TRN121"), (26, "TRN121"), (33, "TRN121")]
