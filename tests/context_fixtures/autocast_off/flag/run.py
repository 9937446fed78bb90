import argparse

from modules import Flow


def build():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mixed_precision", action="store_true")
    args = parser.parse_args()
    if args.small:
        args.mixed_precision = False
    return Flow(args)
