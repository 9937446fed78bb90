import os


def log_setup(logger):
    gpu_list = os.environ['CUDA_VISIBLE_DEVICES'] if 'CUDA_VISIBLE_DEVICES' in os.environ.keys() else 'ALL'
    logger.info('CUDA_VISIBLE_DEVICES=%s' % gpu_list)
    print(f"visible: {os.environ.get('CUDA_VISIBLE_DEVICES')}")


def count_gpus():
    gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "0")
    print("GPUs:", gpus)
    return len(gpus.split(","))


def pick(rank):
    os.environ["CUDA_VISIBLE_DEVICES"] = str(rank)


GPUS = os.environ.get("CUDA_VISIBLE_DEVICES", "")
