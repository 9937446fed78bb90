from detectron2.config import get_cfg
from detectron2.engine import DefaultPredictor


def setup(path):
    cfg = get_cfg()
    cfg.merge_from_file(path)
    return DefaultPredictor(cfg)
