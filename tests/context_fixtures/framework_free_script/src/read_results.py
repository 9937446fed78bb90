import argparse
import csv
import sys

import numpy as np


def main(args):
    scores = [float(row[1]) for row in csv.reader(open(args.results))]
    for i in xrange(len(scores)):
        scores[i] = round(scores[i], 2)
    return np.mean(scores)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(sys.argv[0])
    parser.add_argument("--results")
    main(parser.parse_args())
