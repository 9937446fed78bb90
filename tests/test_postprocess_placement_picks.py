"""A move in an arm of a reported CUDA check (`if torch.cuda.is_available(): images = images.cuda()`) is what the
check picks: on Trainium the check is False and the batch or model silently stays on the CPU. The move (guarded, as
its arm is) folds into the check's finding as a place of it (postprocess_picks._placement); other guarded code of
the arm, and a move whose other arm also names CUDA, stay as they were."""
import json

from conftest import run_cli

SOURCE = '''import torch


def train(model, loader):
    if torch.cuda.is_available():
        model = model.cuda()
    for images in loader:
        if torch.cuda.is_available():
            images.cuda()
            torch.cuda.synchronize()
        model(images)


def evaluate(predictor):
    if torch.cuda.is_available():
        predictor = predictor.to("cuda:0")
    else:
        predictor = predictor.cpu()
    return predictor


def two_gpus(net):
    if torch.cuda.device_count() > 1:
        net = net.cuda(1)
    else:
        net = net.cuda(0)
    return net
'''


def _findings(tmp_path):
    (tmp_path / "train.py").write_text(SOURCE)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def test_moves_under_a_reported_check_are_places_of_the_check(tmp_path):
    found = _findings(tmp_path)
    for check, move in ((5, 6), (8, 9), (15, 16)):
        assert not found[(check, "TRN243")]["guarded"]
        assert [(o["line"], o["rule"]) for o in found[(check, "TRN243")]["occurrences"]][:1] == \
            [(move, "TRN241" if move != 16 else "TRN242")]
        assert not any(line == move for line, _ in found)


def test_other_guarded_code_of_the_arm_stays_guarded(tmp_path):
    found = _findings(tmp_path)
    assert found[(10, "TRN243")]["guarded"]  # torch.cuda.synchronize(): no move, never runs on Neuron


def test_a_move_whose_other_arm_also_names_cuda_is_no_place_of_the_check(tmp_path):
    found = _findings(tmp_path)
    # both arms move to a GPU: on Neuron the else arm runs, and its own move (unguarded, folded into the check as a
    # branch of it) is the line to change; the skipped arm's move stays guarded
    assert found[(24, "TRN241")]["guarded"]
    assert [(o["line"], o["rule"]) for o in found[(23, "TRN243")]["occurrences"]] == [(26, "TRN241")]
