import torch


def log_predictions(image, labels, filtered):
    for cls in labels[:, 0].unique():
        keep = filtered[filtered[:, 5] == cls]
        yield cls, keep
