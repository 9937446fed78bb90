import argparse

import pytorch_lightning as pl

parser = argparse.ArgumentParser()
parser.add_argument("--precision", default="16", type=str)
args = parser.parse_args()
trainer = pl.Trainer.from_argparse_args(args)
