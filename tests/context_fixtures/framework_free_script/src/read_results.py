import argparse
import csv
import sys

import numpy as np


def main(args):
    scores = []
    for row in csv.reader(open(args.results)):
        scores.append(float(row[1]))
    print "mean score", np.mean(scores)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(sys.argv[0])
    parser.add_argument("--results")
    main(parser.parse_args())
