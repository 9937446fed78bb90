import os

os.environ["RWKV_CUDA_ON"] = "0"


def off():
    os.environ.setdefault("FORCE_CUDA", "0")


def off_kw():
    os.environ.update(BUILD_CUDA_EXT="false")


def off_dict():
    os.environ.update({"BUILD_WITH_CUDA": ""})


def on(flag):
    os.environ["FORCE_CUDA"] = "1" if flag else "0"


def on_literal():
    os.environ["RWKV_CUDA_ON"] = "1"
