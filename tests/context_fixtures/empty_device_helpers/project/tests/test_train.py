import subprocess

from tests import first_gpu, gpu_list, pinned_gpu


def test_train_one_epoch(tmp_path):
    # the helpers answer with no GPU without CUDA: on Neuron these commands run on the CPU
    subprocess.check_call(f"CUDA_VISIBLE_DEVICES='{first_gpu()}' python train.py --out {tmp_path}", shell=True)


def test_resume(tmp_path):
    subprocess.check_call(f"CUDA_VISIBLE_DEVICES={gpu_list()} python train.py --resume {tmp_path}", shell=True)


def test_pinned(tmp_path):
    # the helper always names GPU 0: the command pins a GPU whatever the host
    subprocess.check_call(f"CUDA_VISIBLE_DEVICES='{pinned_gpu()}' python train.py --out {tmp_path}", shell=True)
