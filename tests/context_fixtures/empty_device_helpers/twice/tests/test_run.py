import subprocess

from tests.helpers import first_gpu


def test_run():
    # two project functions of that name: which one answers is not decided by name
    subprocess.check_call(f"CUDA_VISIBLE_DEVICES='{first_gpu()}' python run.py", shell=True)
