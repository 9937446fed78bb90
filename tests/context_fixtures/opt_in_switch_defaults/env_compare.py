import os


def attention(q, k, v):
    # a comparison with the environment default ("1"): the branch is the default path, not an opt-in
    if os.getenv("FLASH_ATTEN", "1") == "1":
        from flash_attn import flash_attn_func

        return flash_attn_func(q, k, v)
    return q
