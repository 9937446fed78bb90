import argparse

from ray import tune


def run(fn, cfg, num_gpus):
    resources = cfg.get("resources", {"cpu": 4, "gpu": 1})
    tune.run(fn, resources_per_trial={"gpu": 2} if num_gpus > 1 else {"gpu": 0})
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu", default=1, type=int)
    return resources
