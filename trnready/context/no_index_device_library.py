"""no-index-device-library: a bare GPU index as a device, in a file using no library that reads it as a CUDA GPU."""
from __future__ import annotations

from .base import imported_roots, predicate


@predicate("no-index-device-library", kinds=("keyword",))
def no_index_device_library(ctx, hit) -> bool:
    """Holds (the match is dropped) unless the file imports a library of `[context.values] index-device-libraries`.
    Ultralytics reads a device given as GPU indices (`device="0"`, `"0,1"`, `device=0`) as those CUDA GPUs
    (`select_device` sets CUDA_VISIBLE_DEVICES and picks `cuda:0`), so a YOLO training script's `--device` default
    of "0,1" trains on two NVIDIA GPUs (blind71 GrainSegmentation). Elsewhere a number handed as `device` is an
    index whose meaning the surrounding code decides (a DataLoader worker's, a camera's, an audio card's)."""
    libraries = frozenset(ctx.values.get("index-device-libraries", ()))
    return not (libraries and imported_roots(ctx) & libraries)
