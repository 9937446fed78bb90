import argparse

from tools.trt import build_engine

parser = argparse.ArgumentParser()
parser.add_argument("--precision", choices=("fp16", "fp32"), default="fp16")
args = parser.parse_args()
engine = build_engine(args.onnx, precision=args.precision)
