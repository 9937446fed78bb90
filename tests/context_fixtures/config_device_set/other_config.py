from yacs.config import CfgNode


def get_cfg():
    return CfgNode()


cfg = get_cfg()
