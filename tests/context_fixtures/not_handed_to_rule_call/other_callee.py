import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--mixed_precision", default="fp16", type=str)
args = parser.parse_args()
engine = build_engine(mixed_precision=args.mixed_precision)
