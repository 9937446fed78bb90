import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--num-gpus", type=int, default=1, help="number of gpus per machine")
parser.add_argument("--ngpus", default=None, type=int, help="gpus to request on each node")
parser.add_argument("--num_gpu", type=int, default=argparse.SUPPRESS)
parser.add_argument("--n_gpus", type=int, default=0)
args = parser.parse_args()
