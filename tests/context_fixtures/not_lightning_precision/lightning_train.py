import argparse

from pytorch_lightning import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--accelerator", default="cpu", type=str)
parser.add_argument("--precision", default="fp16", type=str)
args = parser.parse_args()
if args.precision == "fp16":
    args.precision = 16
trainer = Trainer(accelerator=args.accelerator, devices=1, precision=args.precision)
