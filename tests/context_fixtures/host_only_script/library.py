from deepspeed.checkpoint import DeepSpeedCheckpoint


def degrees(path):
    return DeepSpeedCheckpoint(path).tp_degree
