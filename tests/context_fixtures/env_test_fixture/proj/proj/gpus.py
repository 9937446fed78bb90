import os


def visible_ids():
    mask = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    return [int(x) for x in mask.split(",") if x]


def child_env(env):
    env["CUDA_VISIBLE_DEVICES"] = "-1"
    return env
