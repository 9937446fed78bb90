import logging

import torch

logger = logging.getLogger(__name__)


def step(finish, logits, labels):
    if finish.any():
        logger.warning("unexpected end at index %s", str([i.item() for i in finish.nonzero()]))
    print("classes:", torch.unique(labels, sorted=True))
    done = finish.nonzero()  # expect: TRN104
    logger.info("done %s", done)
    keep = logits[torch.nonzero(finish).squeeze(-1)]  # expect: TRN104
    return keep


class Model:
    def training_step(self, batch):
        self.log("active", batch.nonzero().numel())  # expect: TRN104
        return batch


def label_counts(y, labeled):
    print("unlabeled", torch.bincount(y[~labeled]))
    rest = y[~labeled]  # expect: TRN104
    return rest.sum()


def wing(diff, width, curvature):
    small = diff < width
    return width * torch.log(1 + diff[small] / curvature)  # expect: TRN104
