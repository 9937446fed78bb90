import sys

from deepspeed.checkpoint import DeepSpeedCheckpoint

if __name__ == "__main__":
    print(DeepSpeedCheckpoint(sys.argv[1]).tp_degree)
