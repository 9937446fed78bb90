"""Start one worker per device: CPU processes, GPU ranks or TPU cores."""
import sys

import torch_xla.distributed.xla_multiprocessing as xmp


def launch(fn):
    xmp.spawn(fn, nprocs=int(sys.argv[1]))
