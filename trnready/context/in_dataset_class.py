"""in-dataset-class: a match inside a dataset class, whose code runs on the host."""
from __future__ import annotations

from ._class_spans import inside_class_ending
from .base import predicate


@predicate("in-dataset-class")
def in_dataset_class(ctx, hit) -> bool:
    """The match sits in the body of a dataset class: a class whose name, or one of whose base
    classes, ends in `Dataset` (`class Pairs(InMemoryDataset)`, `torch.utils.data.Dataset`). A
    dataset's methods prepare samples on the CPU (in DataLoader workers or once, when the data is
    processed), so a data-dependent shape there costs no compilation on the device."""
    return inside_class_ending(ctx, hit, "Dataset")

