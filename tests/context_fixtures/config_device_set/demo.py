from detectron2.config import get_cfg


def setup(args):
    cfg = get_cfg()
    cfg.merge_from_list(["MODEL.DEVICE", args.device])
    return cfg
