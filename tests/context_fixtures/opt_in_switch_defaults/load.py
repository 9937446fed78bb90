import os


def attention(args, cfg):
    if getattr(args, "use_flash_attn", True):
        from flash_attn import flash_attn_func
    if cfg.get("use_xformers", False):
        import xformers.ops
    if os.getenv("USE_BNB"):
        import bitsandbytes as bnb
    return flash_attn_func


def norm(cfg):
    # on by default: the variable holds "1" unless the user sets it otherwise
    if os.environ.get("USE_APEX", "1"):
        import apex
    return apex
