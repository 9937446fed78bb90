import argparse


def options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu", default=1, type=int)
    return {"gpu": 1, "batch": 8}
