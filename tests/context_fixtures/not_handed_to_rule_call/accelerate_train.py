import argparse

from accelerate import Accelerator

parser = argparse.ArgumentParser()
parser.add_argument("--mixed_precision", default="fp16", type=str)
args = parser.parse_args()
accelerator = Accelerator(mixed_precision=args.mixed_precision)
