import argparse

from lib.modules import Flow


def build():
    args = argparse.Namespace()
    args.mixed_precision = False
    return Flow(args)
