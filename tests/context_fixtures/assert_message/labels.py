import torch


def check_labels(labels, num_classes):
    bad = torch.logical_or(labels < 0, labels >= num_classes)
    assert not bad.any(), (
        f"labels must lie in [0, {num_classes}) but got {labels[bad]}")
    return labels


def check_tokens(tokens, valid):
    assert tokens[valid].numel() > 0, "no valid tokens"  # expect: TRN104
    return tokens


def keep(tokens, valid):
    assert valid.any(), "empty"
    return tokens[valid]  # expect: TRN104


def place(model):
    assert model is not None, f"no model for {torch.cuda.get_device_name()}"
    return model.cuda()  # expect: TRN241
