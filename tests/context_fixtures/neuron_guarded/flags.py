import torch

_SUPPORTS_FLEX = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)
USE_FLEX = _SUPPORTS_FLEX and hasattr(torch.nn.attention, "flex_attention")
SOMETIMES = torch.cuda.is_available()
SOMETIMES = True


def attend(q, k, v, cfg):
    if _SUPPORTS_FLEX:
        q = q.cuda()
    if USE_FLEX:
        k = k.cuda()
    if SOMETIMES:
        v = v.cuda()
    if cfg.flex:
        q = q.cuda()
    return q, k, v
