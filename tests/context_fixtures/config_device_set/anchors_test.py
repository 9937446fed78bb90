from detectron2.config import get_cfg
from detectron2.modeling.anchor_generator import DefaultAnchorGenerator


def test_default_anchor_generator():
    cfg = get_cfg()
    cfg.MODEL.ANCHOR_GENERATOR.SIZES = [[32, 64]]
    return DefaultAnchorGenerator(cfg, [])
