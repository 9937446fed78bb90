import argparse

from modules import Flow


def build():
    args = argparse.Namespace()
    args.mixed_precision = False
    return Flow(args)
