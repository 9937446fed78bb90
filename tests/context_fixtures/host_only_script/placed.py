import sys

from deepspeed.checkpoint import DeepSpeedCheckpoint

if __name__ == "__main__":
    state = DeepSpeedCheckpoint(sys.argv[1]).get_embedding_state(0)
    print({k: v.to(sys.argv[2]) for k, v in state.items()})
