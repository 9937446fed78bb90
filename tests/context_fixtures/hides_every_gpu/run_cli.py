import os
import subprocess

os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ.update(CUDA_VISIBLE_DEVICES="")
subprocess.run("python x.py", shell=True, env={"CUDA_VISIBLE_DEVICES": "-1"})


def on_cpu(config_path):
    subprocess.run(f'CUDA_VISIBLE_DEVICES="" python extract.py --config_path "{config_path}"', shell=True)
    subprocess.run("CUDA_VISIBLE_DEVICES= python extract.py", shell=True)


def by_rank(rank):
    subprocess.run(f"CUDA_VISIBLE_DEVICES='{rank}' python train.py", shell=True)


def two_gpus():
    subprocess.run('CUDA_VISIBLE_DEVICES="0,1" python train.py', shell=True)


def tenth():
    subprocess.run("CUDA_VISIBLE_DEVICES=-10 python train.py", shell=True)


def first():
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"


def second():
    subprocess.run("python x.py", shell=True, env={"CUDA_VISIBLE_DEVICES": "1"})
