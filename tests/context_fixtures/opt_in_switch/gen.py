import torch


def load(args, xformers=False, flash=True):
    vl_dtype = torch.float8_e4m3fn if args.fp8_vl else torch.bfloat16
    if args.fp8:
        weight_dtype = torch.float8_e4m3fn
    elif xformers:
        import xformers.ops
    if flash:
        from flash_attn import flash_attn_func
    if args.attn_mode == "xformers":
        import xformers.ops as xops
    if getattr(args, "use_bnb", False) and args.train:
        import bitsandbytes as bnb
    import apex
    return vl_dtype
