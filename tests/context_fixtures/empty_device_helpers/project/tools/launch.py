import subprocess

from tests import first_gpu


def launch(config):
    # a launcher outside the tests: its child silently runs on the CPU on Neuron, a migration item
    subprocess.check_call(f"CUDA_VISIBLE_DEVICES='{first_gpu()}' python train.py --config {config}", shell=True)
