import sys

from deepspeed.checkpoint import DeepSpeedCheckpoint


def show(t):
    print(t.device)


if __name__ == "__main__":
    show(DeepSpeedCheckpoint(sys.argv[1]).get_embedding_state(0))
