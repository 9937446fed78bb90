"""
Start one worker per TPU core and run a training script in each.

Usage: python spawn_cores.py --cores 8 train.py --lr 3e-4
"""
import runpy
import sys

import torch_xla.distributed.xla_multiprocessing as xmp


def _worker(index, script):
    sys.argv = [script] + sys.argv[4:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    xmp.spawn(_worker, args=(sys.argv[3],), nprocs=int(sys.argv[2]))
